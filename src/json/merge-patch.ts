import type { JsonObject, JsonValue } from './json-value.js';
import { isJsonObject } from './json-value.js';

/**
 * Applies a JSON merge patch (RFC 7386) to `target` and returns the result;
 * `target` is not modified. Objects merge key by key, `null` deletes a key,
 * and anything else (arrays included) replaces what was there.
 */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const result: Record<string, JsonValue> = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    // Defined, not assigned: an assignment would take a `__proto__` key for the object's prototype.
    else
      Object.defineProperty(result, key, {
        value: applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value),
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return result as JsonObject;
}
