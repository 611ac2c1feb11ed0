import type { BrowserContext, Page } from 'playwright-core';

// What a page may load without the network: its own file, inline data, and objects it made itself.
const LOCAL_SCHEMES = new Set(['file:', 'data:', 'blob:']);
const LOOPBACK = '127.0.0.1';

const isLocalScheme = (url: URL): boolean => LOCAL_SCHEMES.has(url.protocol);

/**
 * Every URL the pages of one browser context asked for, in order: each HTTP
 * request, each WebSocket. A request that would leave the machine is also
 * stopped before it goes out, so a page that tries one fails the test through
 * {@link expectOnlyLocalRequests} without the test reaching the network.
 */
export interface RequestLog {
  readonly urls: readonly string[];
}

/** Starts recording (and fencing) the requests of `context`'s pages, those open now and those to come. */
export async function guardRequests(context: BrowserContext): Promise<RequestLog> {
  const urls: string[] = [];
  const watch = (page: Page): void => {
    page.on('websocket', (socket) => urls.push(socket.url()));
  };
  context.on('request', (request) => urls.push(request.url()));
  context.pages().forEach(watch);
  context.on('page', watch);
  // Anything but loopback and the local schemes is aborted, never sent; the log above still has it.
  const leaves = (url: URL): boolean => !isLocalScheme(url) && url.hostname !== LOOPBACK;
  await context.route(leaves, (route) => route.abort('blockedbyclient'));
  // A routed socket raises no page event: it is logged here.
  await context.routeWebSocket(leaves, (socket) => {
    urls.push(socket.url());
    void socket.close({ code: 1008, reason: 'tests never reach the network' });
  });
  return { urls };
}

/** Whether `url` is to the test's own server at `origin` (as `http://127.0.0.1:PORT`), or `file:`, `data:`, `blob:`. */
export function isLocalRequest(url: string, origin?: string): boolean {
  const parsed = new URL(url);
  return isLocalScheme(parsed) || (origin !== undefined && parsed.origin === new URL(origin).origin);
}

/** Asserts that every request in `log` was to the test's own server at `origin`, or `file:`, `data:`, `blob:`. */
export function expectOnlyLocalRequests(log: RequestLog, origin?: string): void {
  const foreign = log.urls.filter((url) => !isLocalRequest(url, origin));
  // Every URL in the message: an assertion's own would cut the list short.
  if (foreign.length > 0) {
    throw new Error(
      `${foreign.length} requests to neither the test's server (${origin ?? 'none'}) nor file:, data:, blob:: ${foreign.join(', ')}`,
    );
  }
}
