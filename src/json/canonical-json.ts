import stableStringify from 'fast-json-stable-stringify';
import type { JsonValue } from './json-value.js';

/**
 * The canonical text of a JSON value: keys sorted by code unit, no whitespace.
 * Callers validate first (see `assertJsonValue`): this function trusts its
 * input, because it sits on the per-step hot path.
 *
 * Lone surrogates come out escaped (`"\udc00"`), so the text is valid UTF-8
 * and survives a round trip through SQLite TEXT byte for byte.
 */
export function canonicalJson(value: JsonValue): string {
  return stableStringify(value);
}
