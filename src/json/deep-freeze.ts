import type { JsonValue } from './json-value.js';

/**
 * Freezes a JSON value and everything in it, and returns it. A value whose
 * root is frozen already is taken to be frozen throughout (this function is
 * the only one that freezes JSON values in forkpoint), so freezing twice is
 * cheap.
 */
export function deepFreeze<T extends JsonValue>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const item of Array.isArray(value) ? value : Object.values(value)) deepFreeze(item as JsonValue);
  return Object.freeze(value);
}
