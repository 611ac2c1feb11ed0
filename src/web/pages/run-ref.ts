import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';

/** A run's id, linked to its page where the links have one (a report file may not). */
export function runRef(runId: string, links: PageLinks): Html {
  const href = links.run(runId);
  const id = html`<code>${runId}</code>`;
  return href === null ? id : html`<a data-run-link="${runId}" href="${href}">${id}</a>`;
}
