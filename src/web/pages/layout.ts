import type { Html, HtmlValue } from '../html/html.js';
import { html, trustedHtml } from '../html/html.js';
import { PAGE_SCRIPT, PAGE_STYLE, inlineAssetPolicy } from '../assets/index.js';
import type { PageLinks } from './page-links.js';

/** A page's parts: its title, what it says, and where its data is served as JSON. */
export interface PageParts {
  readonly title: string;
  readonly body: HtmlValue;
  /** The URL of the JSON document the page is drawn from (the same shape as the CLI's `--json`). */
  readonly json?: string | null;
  /** A line under the header: a report says it is a static file and what it holds. */
  readonly banner?: HtmlValue;
}

/**
 * A whole HTML document around a page. On the server it loads the stylesheet
 * and script from `/assets`; in a report both are inlined, and a content
 * security policy allows exactly those two and nothing from anywhere, so a
 * payload that slipped through as markup could still neither run nor fetch.
 */
export function pageDocument(parts: PageParts, links: PageLinks): Html {
  const assets = links.assets;
  const head =
    assets === null
      ? html`<meta http-equiv="Content-Security-Policy" content="${inlineAssetPolicy()}" />
          ${trustedHtml(`<style>${PAGE_STYLE}</style>`)}`
      : html`<link rel="stylesheet" href="${assets.style}" />
          <script src="${assets.script}" defer></script>`;
  const runs = links.runs();
  const json = parts.json === undefined || parts.json === null ? null : links.json(parts.json);
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <link rel="icon" href="data:," />
        <title>${parts.title} · forkpoint</title>
        ${head}
      </head>
      <body>
        <header class="top">
          <a class="brand" href="${runs ?? '#top'}">forkpoint</a>
          ${runs === null ? null : html`<nav class="top-nav"><a href="${runs}">runs</a>${navLink(links.classes(), 'classes')}${navLink(links.divergence(), 'divergence')}</nav>`}
          ${json === null ? null : html`<a class="json-link" href="${json}">this page as JSON</a>`}
        </header>
        ${parts.banner === undefined ? null : html`<p class="banner">${parts.banner}</p>`}
        <main id="top">${parts.body}</main>
        ${assets === null ? trustedHtml(`<script>${PAGE_SCRIPT}</script>`) : null}
      </body>
    </html>`;
}

const navLink = (href: string | null, label: string): Html | null =>
  href === null ? null : html`<a href="${href}">${label}</a>`;
