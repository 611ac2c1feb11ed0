import type { Html } from '../html/html.js';
import { html } from '../html/html.js';

/** What went wrong, as a page says it: the project's stable code and the one-line message. */
export interface PageError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** An error as a page: its code, its message, and the way back. */
export function errorPage(error: PageError): Html {
  return html`<section class="error-page" data-error-code="${error.code}">
    <h1>${error.status === 404 ? 'not found' : 'cannot show this page'}</h1>
    <p><span class="code">${error.code}</span>: ${error.message}</p>
    <p><a href="/runs">all runs</a></p>
  </section>`;
}
