import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import { CASSETTE_FORMAT } from './cassette.js';

/** The format before the world's date was named as everywhere else (`source.at`, now `source.worldAt`). */
export const CASSETTE_FORMAT_1 = 'forkpoint-cassette/1';

/**
 * A cassette file of an older format in the current one, so that every
 * cassette a team committed, and every structural tier an older forkpoint
 * stored, still reads. Anything else is returned as it is, for the checks to
 * judge. Format 1 differs only in the name of the world's date; the plaintext
 * seal does not cover it, so an upgraded file's seal still verifies.
 */
export function upgradeCassette(value: JsonValue): JsonValue {
  if (!isJsonObject(value) || value.format !== CASSETTE_FORMAT_1) return value;
  const { source } = value;
  if (!isJsonObject(source)) return { ...value, format: CASSETTE_FORMAT };
  const { at, ...rest }: JsonObject = source;
  return { ...value, format: CASSETTE_FORMAT, source: { ...rest, worldAt: at ?? null } };
}
