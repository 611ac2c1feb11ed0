import type { JsonValue } from './json-value.js';
import { isJsonObject } from './json-value.js';

/**
 * Applies a JSON merge patch (RFC 7386) to `target` and returns the result;
 * `target` is not modified. Objects merge key by key, `null` deletes a key,
 * and anything else (arrays included) replaces what was there.
 */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  // A map keeps the target's key order, a merged key in its place and a new one at the end.
  const merged = new Map(isJsonObject(target) ? Object.entries(target) : []);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, applyMergePatch(merged.get(key), value));
  }
  // fromEntries defines each key: a `__proto__` key stays a key, where an assignment would set the prototype.
  return Object.fromEntries(merged);
}
