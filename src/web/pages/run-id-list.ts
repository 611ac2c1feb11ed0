import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';
import { runRef } from './run-ref.js';

/** Run ids, each linked to its page, the run `here` marked. */
export function runIdList(runIds: readonly string[], links: PageLinks, here?: string): Html {
  return html`<ul class="run-list ids">${runIds.map(
    (runId) =>
      html`<li${runId === here ? html` class="here"` : ''}>${runRef(runId, links)}${runId === here ? html` <span class="muted">(this run)</span>` : ''}</li>`,
  )}</ul>`;
}
