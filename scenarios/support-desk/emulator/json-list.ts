import type { JsonArray, JsonValue } from '../../../src/index.js';

/** True for a JSON array (`Array.isArray` alone would narrow a JSON value to `any[]`). */
export const isJsonList = (value: JsonValue | undefined): value is JsonArray => Array.isArray(value);
