/** A JSON primitive. */
export type JsonPrimitive = string | number | boolean | null;
/** A JSON array. */
export type JsonArray = readonly JsonValue[];
/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}
/** Any value that survives a JSON round trip unchanged. */
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;

/** True for a non-null, non-array object. */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for an array: unlike `Array.isArray`, which narrows a readonly array to `any[]`, its items stay JSON. */
export function isJsonArray(value: JsonValue | undefined): value is JsonArray {
  return Array.isArray(value);
}
