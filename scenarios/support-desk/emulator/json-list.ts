import type { JsonArray, JsonValue } from '../../../src/index.js';
import { isJsonObject } from '../../../src/index.js';

/** True for a JSON array (`Array.isArray` alone would narrow a JSON value to `any[]`). */
export const isJsonList = (value: JsonValue | undefined): value is JsonArray => Array.isArray(value);

/**
 * The text of a message's content as both APIs write it: a string, or a list
 * of parts whose `text` fields are joined.
 */
export const contentText = (content: JsonValue | undefined): string =>
  typeof content === 'string'
    ? content
    : isJsonList(content)
      ? content.map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : '')).join('')
      : '';
