import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const REPOSITORY = resolve(import.meta.dirname, '../..');

// The package's entry points, as the snippets import them, resolved to this repository's sources.
const ENTRIES: Readonly<Record<string, string>> = {
  forkpoint: 'src/index.ts',
  'forkpoint/anthropic': 'src/entries/anthropic.ts',
  'forkpoint/openai': 'src/entries/openai.ts',
  'forkpoint/ai-sdk': 'src/entries/ai-sdk.ts',
};

/**
 * The README's one TypeScript block that imports `entry` (`forkpoint/anthropic`, say), as a user copies it;
 * with `marker`, the one block that holds it.
 */
export function readmeSnippet(entry: string, marker = `from '${entry}';`): string {
  const readme = readFileSync(join(REPOSITORY, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const found = blocks.filter((block) => block.includes(marker));
  if (found.length !== 1) throw new Error(`the README has ${found.length} TypeScript blocks holding ${marker}, not 1`);
  return found[0] ?? '';
}

/**
 * Runs a README block as it is written, but for the package's names, which
 * resolve to this repository's sources, and one line of the caller's own that
 * hands back what the block made (`exported`). The file is written inside the
 * repository (`.tmp/`, ignored by git and the linters), so that the SDKs resolve
 * to its node_modules, and removed after.
 */
export async function runReadmeSnippet(
  entry: string,
  exported: readonly string[],
  marker?: string,
): Promise<Record<string, unknown>> {
  let code = readmeSnippet(entry, marker);
  for (const [name, path] of Object.entries(ENTRIES))
    code = code.replaceAll(`from '${name}';`, `from ${JSON.stringify(pathToFileURL(join(REPOSITORY, path)).href)};`);
  if (/from 'forkpoint/.test(code))
    throw new Error(`the ${entry} snippet imports an entry point the runner does not know`);
  mkdirSync(join(REPOSITORY, '.tmp'), { recursive: true });
  const file = join(REPOSITORY, '.tmp', `readme-${entry.replace(/\W/g, '-')}-${process.pid}.ts`);
  writeFileSync(file, `${code}\nexport { ${exported.join(', ')} };\n`);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } finally {
    rmSync(file, { force: true });
  }
}
