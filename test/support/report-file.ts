import { createHash } from 'node:crypto';
import { expect } from 'vitest';

/** The documents a report embeds as `#forkpoint-data`: what `show`, `tree` and `compare --json` print. */
export interface EmbeddedDocuments {
  readonly show: unknown;
  readonly tree: unknown;
  readonly compare: unknown;
}

/** The JSON a report file embeds in `<script type="application/json" id="forkpoint-data">`. */
export function embeddedDocuments(report: string): EmbeddedDocuments {
  const match = /<script type="application\/json" id="forkpoint-data">([^<]*)<\/script>/.exec(report);
  expect(match, 'the report embeds #forkpoint-data').not.toBeNull();
  return JSON.parse(match?.[1] ?? 'null') as EmbeddedDocuments;
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Checks that a report stands alone: nothing it names is fetched from
 * anywhere (every `src`, `href` and `url(` is an anchor in the file or a
 * `data:` URL, and each anchor is there), and its content security policy
 * allows exactly its one inline stylesheet and one inline script, by hash.
 */
export function expectSelfContained(report: string): void {
  const references = [...report.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((match) => match[1] ?? '');
  expect(references.length).toBeGreaterThan(1);
  const outside = references.filter((reference) => !reference.startsWith('#') && !reference.startsWith('data:'));
  expect(outside, 'references to anything outside the file').toEqual([]);
  const ids = new Set([...report.matchAll(/\sid="([^"]*)"/g)].map((match) => match[1]));
  const dangling = references.filter((reference) => reference.startsWith('#') && !ids.has(reference.slice(1)));
  expect(dangling, 'anchors with no element of that id').toEqual([]);
  expect(report).not.toMatch(/url\(\s*['"]?(?!data:)/);
  expect(report).not.toMatch(/<link rel="stylesheet"|@import/);
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)" \/>/
    .exec(report)?.[1]
    ?.replace(/&#39;/g, "'");
  expect(policy, 'a content security policy in a meta element').toBeDefined();
  const styles = [...report.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1] ?? '');
  const scripts = [...report.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
  expect([styles.length, scripts.length]).toEqual([1, 1]);
  expect(policy?.split('; ')).toEqual([
    "default-src 'none'",
    `style-src ${sha256(styles[0] ?? '')}`,
    `script-src ${sha256(scripts[0] ?? '')}`,
    'img-src data:',
    "form-action 'none'",
    "base-uri 'none'",
  ]);
}
