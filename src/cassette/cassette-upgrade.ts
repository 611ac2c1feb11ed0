import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import { CASSETTE_FORMAT } from './cassette.js';

/**
 * The format before a cassette named its facts as runs and steps do: the
 * world's date was `source.at` (now `source.worldAt`), an entry's request
 * hash `hash` (now `requestHash`).
 */
export const CASSETTE_FORMAT_1 = 'forkpoint-cassette/1';

/**
 * A cassette file of an older format in the current one, so that every
 * cassette a team committed, and every structural tier an older forkpoint
 * stored, still reads. Anything else is returned as it is, for the checks to
 * judge. Format 1 differs only in two names; the plaintext seal covers
 * neither, so an upgraded file's seal still verifies.
 */
export function upgradeCassette(value: JsonValue): JsonValue {
  if (!isJsonObject(value) || value.format !== CASSETTE_FORMAT_1) return value;
  const { source, entries } = value;
  return {
    ...value,
    format: CASSETTE_FORMAT,
    ...(isJsonObject(source) ? { source: renamed(source, 'at', 'worldAt') } : {}),
    ...(isJsonArray(entries)
      ? { entries: entries.map((entry) => (isJsonObject(entry) ? renamed(entry, 'hash', 'requestHash') : entry)) }
      : {}),
  };
}

// The object with one field under its new name; an absent field stays absent, for the checks to name.
function renamed(object: JsonObject, from: string, to: string): JsonObject {
  if (!(from in object)) return object;
  const { [from]: value, ...rest } = object;
  return { ...rest, [to]: value ?? null };
}
