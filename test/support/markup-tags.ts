import { expect } from 'vitest';
import { PAGE_SCRIPT } from '../../src/web/assets/index.js';

/** One tag of a page's markup: its name and its attributes as written. */
export interface MarkupTag {
  readonly name: string;
  readonly attributes: string;
}

/**
 * The tags of a page as a browser would see them start: wherever a page wrote
 * text escaped, no `<` is left, so every `<` that opens a name is a tag. The
 * report's inline page script (forkpoint's own, known text) is taken out first.
 */
export function markupTags(page: string): MarkupTag[] {
  const inline = `<script>${PAGE_SCRIPT}</script>`;
  const markup = page.includes(inline) ? page.replace(inline, '<script></script>') : page;
  return [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)].map((match) => ({
    name: (match[1] ?? '').toLowerCase(),
    attributes: match[2] ?? '',
  }));
}

// The scripts forkpoint writes: the server's one file, a report's inline script and its embedded documents.
const OWN_SCRIPTS = ['', ' src="/assets/forkpoint.js" defer', ' type="application/json" id="forkpoint-data"'];

/**
 * Checks that a page holds no markup but forkpoint's own: no element that
 * loads or runs anything besides its `scripts` script elements (each one of
 * forkpoint's), and no event handler attribute anywhere.
 */
export function expectOnlyOwnMarkup(page: string, scripts: number, what: string): void {
  const tags = markupTags(page);
  expect(tags.length, `${what}: tags found`).toBeGreaterThan(20);
  const foreign = tags.filter((tag) => ['img', 'iframe', 'object', 'embed', 'svg', 'math', 'base'].includes(tag.name));
  expect(foreign, `${what}: elements a payload would bring`).toEqual([]);
  const handlers = tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag.attributes));
  expect(handlers, `${what}: event handler attributes`).toEqual([]);
  const own = tags.filter((tag) => tag.name === 'script');
  expect(own.length, `${what}: script elements`).toBe(scripts);
  for (const tag of own) expect(OWN_SCRIPTS, `${what}: a script forkpoint did not write`).toContain(tag.attributes);
}

/** The first part of `page` from `start` to the first `end` after it; fails when there is none. */
export function sectionOf(page: string, start: string, end: string): string {
  const from = page.indexOf(start);
  expect(from, `the page has ${start}`).toBeGreaterThanOrEqual(0);
  const to = page.indexOf(end, from + start.length);
  expect(to, `${start} ends with ${end}`).toBeGreaterThan(from);
  return page.slice(from, to + end.length);
}
