import { isIP } from 'node:net';
import { ForkpointError } from '../../errors/index.js';

/** Whether `host` names this machine only: 127.0.0.0/8, ::1 or `localhost`. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

/**
 * Checks the address the view is to listen on: loopback only, unless the
 * caller asked for another by name with `allowRemote` (the view shows every
 * payload of the store, to whoever can reach it).
 */
export function assertListenHost(host: string, allowRemote: boolean): void {
  if (allowRemote || isLoopback(host)) return;
  throw new ForkpointError(
    'HOST_REFUSED',
    `the view listens on loopback only (127.0.0.1, ::1, localhost), got ${host}: it shows every payload in the store to whoever reaches it; to listen on ${host} anyway, ask by name with --allow-remote`,
  );
}

/**
 * Whether a request's `Host` header names the loopback server it reached:
 * a page from elsewhere that points a name of its own at 127.0.0.1 (DNS
 * rebinding) is refused instead of being served the store.
 */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (header === undefined) return false;
  const host = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0];
  return host !== undefined && isLoopback(host);
}
