import type { JsonObject, JsonValue } from '../../../src/index.js';
import type { CasePath } from './case-paths.js';
import { CASE_PATHS } from './case-paths.js';
import type { CaseReader } from './case-reader.js';
import { caseReader, join } from './case-reader.js';
import type { CaseWorld } from './case-world.js';
import { readCaseWorld } from './case-world.js';
import type { Expectation } from './expectation.js';
import { EXPECTED_FIELDS, readExpectation } from './expectation.js';

/** A synthetic claims case, read and checked field by field. */
export interface ClaimsCase {
  readonly id: string;
  readonly narrative: string;
  readonly paths: readonly CasePath[];
  readonly at: string;
  readonly world: CaseWorld;
  readonly expectation: Expectation;
  /** The case as written. */
  readonly data: JsonObject;
  /** Its `expected` as written. */
  readonly expected: JsonObject;
}

const TOP_LEVEL = ['id', 'narrative', 'paths', 'at', 'claim', 'policy', 'documents', 'expected'];

/** Reads one case file's JSON; throws `INPUT_INVALID` naming `file`, the field and what it expects. */
export function readCase(value: JsonValue, file: string): ClaimsCase {
  const reader = caseReader(file);
  const data = reader.object(value, '', TOP_LEVEL);
  // Read in the order the fields are written, so that the first problem reported is the first in the file.
  const id = reader.string(data.id, 'id', { regex: /^SYN-\d+$/, hint: 'SYN-07' });
  const narrative = reader.string(data.narrative, 'narrative');
  const paths = readPaths(reader, data.paths);
  const at = reader.date(data.at, 'at');
  const world = readCaseWorld(reader, data, at);
  const expected = reader.object(data.expected, 'expected', [], EXPECTED_FIELDS);
  return { id, narrative, paths, at, world, expectation: readExpectation(reader, expected), data, expected };
}

function readPaths(reader: CaseReader, value: JsonValue | undefined): CasePath[] {
  const paths = reader
    .array(value, 'paths', 1)
    .map((entry, index) => reader.oneOf(entry, join('paths', index), CASE_PATHS));
  const repeated = paths.find((path, index) => paths.indexOf(path) !== index);
  if (repeated !== undefined) reader.fail('paths', `lists ${repeated} twice`);
  return paths;
}
