import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of the hand-written synthetic claims. The JSON cases are not
 * compiled into `dist/`, so this walks up to the package root (the first
 * directory with a `package.json`) whether it runs from source or from `dist/`.
 */
export function syntheticCasesDir(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, 'package.json'))) return join(directory, 'scenarios', 'claims-triage', 'synthetic');
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package root above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
}
