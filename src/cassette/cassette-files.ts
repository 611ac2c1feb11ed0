import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ForkpointError } from '../errors/index.js';
import type { Cassette } from './cassette.js';
import { parseCassette } from './cassette-file.js';
import { SEALED_FORMAT } from './sealed-cassette.js';

/** Every `.json` file below `directory`, recursively, in a stable order. */
export function findCassetteFiles(directory: string): string[] {
  let entries: string[];
  try {
    if (!statSync(directory).isDirectory()) throw new Error('not a directory');
    entries = readdirSync(directory, { recursive: true }) as string[];
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot read the cassette folder ${directory} (${(error as Error).message})`, {
      cause: error,
    });
  }
  return entries
    .map((entry) => join(directory, entry))
    .filter((path) => path.endsWith('.json') && statSync(path).isFile())
    .sort((a, b) => relative(directory, a).localeCompare(relative(directory, b)));
}

// Given as a string, the encoding is copied into fresh options on every read, each with a hidden class of its
// own (see withFields): a suite reads thousands of files.
const UTF8 = { encoding: 'utf8', flag: 'r' } as const;

/** The text of a cassette file; a file that cannot be read is `CASSETTE_INVALID`. */
export function readCassetteText(path: string): string {
  try {
    return readFileSync(path, UTF8);
  } catch (error) {
    throw new ForkpointError('CASSETTE_INVALID', `cannot read cassette ${path} (${(error as Error).message})`, {
      cause: error,
    });
  }
}

/** Reads and checks one open cassette file (not a sealed one: see `readCassette`); any problem is `CASSETTE_INVALID`. */
export function readCassetteFile(path: string): Cassette {
  return parseCassette(readCassetteText(path), path);
}

/**
 * The tier a cassette file says it holds, read without checking the rest: a
 * sealed file holds a full tier. Undefined for text that is not a JSON object.
 */
export function cassetteTierOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { format, tier } = value as { format?: unknown; tier?: unknown };
    return format === SEALED_FORMAT ? 'full' : typeof tier === 'string' ? tier : 'full';
  } catch {
    return undefined;
  }
}
