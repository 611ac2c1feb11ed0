import type { JsonValue } from './json-value.js';
import { isJsonArray, isJsonObject } from './json-value.js';

/**
 * Whether two JSON values are equal: the same primitives, lists of equal
 * items in order, objects with the same keys (in any order) holding equal
 * values. One walk, no text made: what a check of two large values costs is
 * their size, a fraction of writing their canonical text and hashing it.
 */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (isJsonArray(a)) {
    if (!isJsonArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => {
      const other = b[i];
      return other !== undefined && sameJson(item, other);
    });
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const left = a[key];
    const right = b[key];
    return left !== undefined && right !== undefined && sameJson(left, right);
  });
}
