import type { JsonValue } from '../json/index.js';

/**
 * The shape of a number: its class (integer or decimal) and its sign, as the
 * representatives 0, 1, -1, 0.5 and -0.5. Shaping a shape changes nothing.
 */
export function shapeNumber(value: number): number {
  if (value === 0) return 0;
  const sign = value < 0 ? -1 : 1;
  return Number.isInteger(value) ? sign : sign * 0.5;
}

/** The shape of a string: `a` repeated to its length. */
export const shapeString = (value: string): string => 'a'.repeat(value.length);

/**
 * The shape of a JSON value, the structural tier's view of content: every
 * string becomes `a` repeated to its length, numbers keep their class and
 * sign, arrays keep their length, objects their keys, booleans and nulls
 * stay. Bugs that are indifferent to content see the same run in its shape.
 */
export function shapeJson(value: JsonValue): JsonValue {
  if (typeof value === 'string') return shapeString(value);
  if (typeof value === 'number') return shapeNumber(value);
  if (value === null || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(shapeJson);
  // fromEntries defines own fields: an assignment would take a `__proto__` key for the object's prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeJson(item)]));
}
