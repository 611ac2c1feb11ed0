import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ForkpointError } from '../errors/index.js';

/**
 * Writes `text` to `file` whole or not at all: into a hidden file beside it,
 * renamed over it once written, so a full disk or a killed process leaves
 * the old file (or none), never half of the new one. A failure is bad input
 * (a path that cannot be written), never a bug.
 */
export function writeWholeFile(file: string, text: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ForkpointError('USAGE', `cannot write ${file} (${(error as Error).message})`, {
      cause: error,
      details: { path: file },
    });
  }
}
