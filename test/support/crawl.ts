import type { HttpAnswer } from './http-get.js';
import { httpRequest } from './http-get.js';

/** Every path a crawl asked for, with its answer. */
export type Crawl = ReadonlyMap<string, HttpAnswer>;

const HREF = /\shref="([^"]*)"/g;

/**
 * Follows every link of the view from `start`, as a reader clicking through
 * would (fragments dropped, each path once), up to `limit` paths; the
 * assets and JSON documents the pages point at are fetched too.
 */
export async function crawlView(base: string, start: readonly string[], limit = 5000): Promise<Crawl> {
  const seen = new Map<string, HttpAnswer>();
  const queue = [...start];
  while (queue.length > 0 && seen.size < limit) {
    const path = queue.shift() ?? '/';
    if (seen.has(path)) continue;
    const answer = await httpRequest(base, path);
    seen.set(path, answer);
    if (!(answer.headers['content-type'] ?? '').toString().startsWith('text/html')) continue;
    for (const match of answer.body.matchAll(HREF)) {
      const href = (match[1] ?? '').replace(/&amp;/g, '&').split('#')[0] ?? '';
      if (href.startsWith('/') && !href.startsWith('//') && !seen.has(href)) queue.push(href);
    }
  }
  return seen;
}
