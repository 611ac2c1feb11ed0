import type { JsonObject, JsonValue } from '../../json/index.js';
import { assertJsonValue, isJsonArray, isJsonObject } from '../../json/index.js';
import { isForkpointError } from '../../errors/index.js';
import { unmappedResponse } from '../provider-errors.js';

// What OpenAI answers is read as JSON, field by field: a server that only claims to speak the API (a proxy, a
// compatible server) may send anything, and a field that is not what the API documents is refused, naming it,
// rather than guessed at.

/** The provider name every OpenAI error and provider part carries. */
export const OPENAI = 'openai';

/** The SDK's answer as plain JSON: it is parsed JSON, so anything else is a client that is not the SDK's. */
export function jsonOf(raw: unknown, what: string): JsonObject {
  try {
    assertJsonValue(raw, what, 'PROVIDER_UNMAPPED');
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    throw unmappedResponse(OPENAI, what, null, error.message);
  }
  return objectAt(raw, what);
}

/** `value` as an object, or `PROVIDER_UNMAPPED` naming `field`. */
export function objectAt(value: JsonValue | undefined, field: string): JsonObject {
  if (!isJsonObject(value)) throw unmappedResponse(OPENAI, field, value ?? null, 'it is not an object');
  return value;
}

/** `value` as an array, or `PROVIDER_UNMAPPED` naming `field`. */
export function arrayAt(value: JsonValue | undefined, field: string): readonly JsonValue[] {
  if (!isJsonArray(value)) throw unmappedResponse(OPENAI, field, value ?? null, 'it is not an array');
  return value;
}

/** `value` as a string, or `PROVIDER_UNMAPPED` naming `field`. */
export function stringAt(value: JsonValue | undefined, field: string): string {
  if (typeof value !== 'string') throw unmappedResponse(OPENAI, field, value ?? null, 'it is not a string');
  return value;
}

/** A token count: a whole number from 0 up, or absent (`undefined`, or `null` as some servers write it). */
export function countAt(value: JsonValue | undefined, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw unmappedResponse(OPENAI, field, value, 'a token count is a whole number from 0 up');
  return value;
}

/**
 * A tool call's arguments, which OpenAI sends as a JSON string, parsed to the object the neutral shape holds (so
 * the request hash sees the object, not its spelling). The model writes that string and may write it wrong:
 * anything but a JSON object is refused, with the string verbatim, rather than handed to a tool.
 */
export function parseArguments(text: string, field: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw unmappedResponse(OPENAI, field, text, `the arguments are not JSON (${why})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw unmappedResponse(OPENAI, field, text, 'the arguments are JSON but not an object');
  // JSON.parse makes plain JSON: nothing to check beyond it being an object.
  return parsed as JsonObject;
}

/** A tool result's content as the text OpenAI takes: a string as it is, any other JSON as its JSON text. */
export const resultText = (content: JsonValue): string =>
  typeof content === 'string' ? content : JSON.stringify(content);

/** `object` without the named keys: what is left of an item once its neutral parts are taken out. */
export function without(object: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}
