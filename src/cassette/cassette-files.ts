import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ForkpointError } from '../errors/index.js';
import type { Cassette } from './cassette.js';
import { parseCassette } from './cassette-file.js';

/** Every `.json` file below `directory`, recursively, in a stable order. */
export function findCassetteFiles(directory: string): string[] {
  let entries: string[];
  try {
    if (!statSync(directory).isDirectory()) throw new Error('not a directory');
    entries = readdirSync(directory, { recursive: true }) as string[];
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot read the cassette folder ${directory} (${(error as Error).message})`, { cause: error });
  }
  return entries
    .map((entry) => join(directory, entry))
    .filter((path) => path.endsWith('.json') && statSync(path).isFile())
    .sort((a, b) => relative(directory, a).localeCompare(relative(directory, b)));
}

/** Reads and checks one cassette file; any problem is `CASSETTE_INVALID`. */
export function readCassetteFile(path: string): Cassette {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ForkpointError('CASSETTE_INVALID', `cannot read cassette ${path} (${(error as Error).message})`, { cause: error });
  }
  return parseCassette(text, path);
}
