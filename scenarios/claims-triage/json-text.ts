import type { JsonValue } from '../../src/index.js';

/**
 * A JSON value in prose: a string as it is, anything else as JSON (`205`,
 * `0.38`, `null`), so that a field the world sent as something unexpected
 * still reads as what it was.
 */
export function jsonText(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : value === undefined ? 'undefined' : JSON.stringify(value);
}
