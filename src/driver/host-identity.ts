import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Names the machine and PID namespace this process runs in, so that a run's
 * owner PID is only ever checked by a process that sees the same PIDs: two
 * containers on one host, or one host after a reboot, number their processes
 * apart. On Linux: the host name, the boot id and the PID namespace; elsewhere
 * the host name alone.
 */
export function hostIdentity(): string {
  const parts = [hostname()];
  try {
    parts.push(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), readlinkSync('/proc/self/ns/pid'));
  } catch {
    // Not Linux, or /proc is hidden: the host name is what there is.
  }
  return parts.join('/');
}
