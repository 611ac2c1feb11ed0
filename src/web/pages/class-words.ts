import type { GroupCounts } from '../../workflows/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';
import { runRef } from './run-ref.js';

/** A share of the period's runs as `classes` prints it: one decimal under 10%. */
export const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

/** The period a page counts over, in words. */
export const sinceWords = (since: string | null): string =>
  since === null ? 'in the store' : `since ${since.slice(0, 10)}`;

/** Counts by a key, largest first (`baseline 12 · patched 2`), as the CLI prints them. */
export const countsWords = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([key, count]) => `${key} ${count}`)
    .join(' · ');

/** A group's days as a range: `2026-03-01..2026-03-04 (4 days)`. */
export function daysWords(counts: GroupCounts): string {
  const days = Object.keys(counts.byDay).sort();
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return 'no day';
  return first === last ? first : `${first}..${last} (${days.length} days)`;
}

/** Run ids, each linked to its page, the run `here` marked. */
export function runIdList(runIds: readonly string[], links: PageLinks, here?: string): Html {
  return html`<ul class="run-list ids">${runIds.map(
    (runId) =>
      html`<li${runId === here ? html` class="here"` : ''}>${runRef(runId, links)}${runId === here ? html` <span class="muted">(this run)</span>` : ''}</li>`,
  )}</ul>`;
}
