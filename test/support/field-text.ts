import type { JsonValue } from '../../src/json/index.js';

/**
 * A JSON field as text in a sentence, as `String` prints it, except that an object or an array is its JSON
 * rather than `[object Object]`.
 */
export function fieldText(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
