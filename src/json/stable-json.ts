import stringify from 'fast-json-stable-stringify';
import type { JsonValue } from './json-value.js';

/**
 * The canonical text of a JSON value as fast-json-stable-stringify writes it:
 * keys sorted by code unit, no whitespace. For every use off the per-step path
 * (code hashes, cassette files and seals, structural shapes); the request
 * hasher uses {@link canonicalJson}, the same text with memoised subtrees
 * (`npm run bench`, "canonical JSON"). Callers validate first: the package
 * writes `NaN` as `null`, a `Date` as its ISO string and leaves a function out.
 */
export function stableJson(value: JsonValue): string {
  return stringify(value);
}
