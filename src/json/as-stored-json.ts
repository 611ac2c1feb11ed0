import type { JsonValue } from './json-value.js';

/**
 * A JSON value as a store gives it back: JSON text has no negative zero, so
 * `-0` comes back as `0` (every other value `assertJsonValue` accepts comes back
 * as it was). What a mode returns without reading its run back passes through
 * this, so that it equals the read.
 */
export function asStoredJson<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
