import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';

// In a structural cassette every content string is `a` repeated to its length,
// so a file writes one as `a*N`: a 2 KB form costs six bytes. Envelope strings
// (tool names, ids) are written as they are, and none may look like `a*N`.
const RUN = /^a+$/;
const WRITTEN = /^a\*(\d+)$/;
const SHORTEST_RUN = 4;

/** Writes every run of `a` of length four or more as `a*N`. */
export function compactShapedStrings(value: JsonValue): JsonValue {
  if (typeof value === 'string') {
    if (WRITTEN.test(value))
      throw new ForkpointError(
        'CASSETTE_INVALID',
        `the string "${value}" cannot be written in a structural cassette: it reads as a run of a`,
      );
    return value.length >= SHORTEST_RUN && RUN.test(value) ? `a*${value.length}` : value;
  }
  return mapContainers(value, compactShapedStrings);
}

/** How far a structural file may expand: each string, and all of them together. */
export interface ExpansionLimits {
  /** The most characters one `a*N` may stand for. */
  readonly perString: number;
  /** The most characters all of a file's `a*N` may stand for together: a file of many large runs is a bomb too. */
  readonly total: number;
}

/** Reads `a*N` back as `a` repeated N times, within the limits. */
export function expandShapedStrings(value: JsonValue, limits: ExpansionLimits): JsonValue {
  let budget = limits.total;
  const expand = (item: JsonValue): JsonValue => {
    if (typeof item !== 'string') return mapContainers(item, expand);
    const written = WRITTEN.exec(item);
    if (written === null) return item;
    const length = Number(written[1]);
    if (length > limits.perString)
      throw new ForkpointError(
        'CASSETTE_INVALID',
        `a shaped string of ${length} characters is longer than the file allows (${limits.perString})`,
      );
    budget -= length;
    if (budget < 0)
      throw new ForkpointError(
        'CASSETTE_INVALID',
        `its shaped strings stand for more than ${limits.total} characters in all, more than a structural cassette may expand to`,
      );
    return 'a'.repeat(length);
  };
  return expand(value);
}

function mapContainers(value: JsonValue, map: (item: JsonValue) => JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(map);
  // fromEntries defines own fields: an assignment would take a `__proto__` key for the object's prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}
