import { ForkpointError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject, MAX_JSON_DEPTH } from '../../json/index.js';

// What an AI SDK model hands over is JavaScript, not JSON: a `Date` in response metadata, a file's bytes as a
// `Uint8Array`, a property set to `undefined` (the specification's "absent", which `ai` passes on as it is: a
// usage's `total: undefined`, a finish reason's `raw: undefined`). A replay has to hand the user's code the
// same values, so each of these is written as a tagged object and read back as what it was; plain JSON is
// written as it is, and an object that happens to have the tag's key is wrapped, so nothing is misread.

/** The key of a tagged value. */
const TAG = '$forkpoint';

const SPECIAL_NUMBERS: Readonly<Record<string, number>> = {
  '-0': -0,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
};

/**
 * `value` as JSON that {@link revivedValueOf} turns back into an equal value:
 * plain JSON as it is; `undefined`, `-0`, `NaN` and the infinities, a `Date`
 * and a `Uint8Array` as tagged objects (an object of no prototype comes back
 * a plain one, as from JSON). What cannot come back as it was (a
 * class instance such as an `Error`, a `Map`, a `Buffer`; a function, a
 * symbol, a BigInt; an invalid date; a cycle; symbol keys; nesting past the
 * JSON depth limit) is `PROVIDER_UNMAPPED`, naming where it is under `path`.
 */
export function storedValueOf(value: unknown, path: string): JsonValue {
  return stored(value, path, 0, new Set());
}

function stored(value: unknown, path: string, depth: number, ancestors: Set<object>): JsonValue {
  const refuse = (why: string) =>
    new ForkpointError('PROVIDER_UNMAPPED', `the AI SDK model gave ${path}, which forkpoint cannot store: ${why}`, {
      details: { field: path },
    });
  if (depth > MAX_JSON_DEPTH) throw refuse(`it is nested deeper than ${MAX_JSON_DEPTH} levels`);
  switch (typeof value) {
    case 'undefined':
      return { [TAG]: 'undefined' };
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Object.is(value, -0)) return { [TAG]: 'number', value: '-0' };
      return Number.isFinite(value) ? value : { [TAG]: 'number', value: String(value) };
    case 'object':
      break;
    default:
      throw refuse(`a ${typeof value} has no stored form`);
  }
  if (value === null) return null;
  if (ancestors.has(value)) throw refuse('it contains itself');
  const prototype: unknown = Object.getPrototypeOf(value);
  if (value instanceof Date && prototype === Date.prototype) {
    if (Number.isNaN(value.getTime())) throw refuse('it is an invalid Date');
    return { [TAG]: 'date', value: value.toISOString() };
  }
  if (value instanceof Uint8Array && prototype === Uint8Array.prototype)
    return { [TAG]: 'bytes', value: Buffer.from(value).toString('base64') };
  ancestors.add(value);
  try {
    if (Array.isArray(value) && prototype === Array.prototype)
      return Array.from(value as unknown[], (item, i) => stored(item, `${path}[${i}]`, depth + 1, ancestors));
    if (prototype !== Object.prototype && prototype !== null) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      throw refuse(`a ${typeof name === 'string' ? name : 'class instance'} would come back as a plain object`);
    }
    if (Object.getOwnPropertySymbols(value).length > 0) throw refuse('its symbol keys have no stored form');
    const entries = Object.entries(value).map(([key, item]): [string, JsonValue] => [
      key,
      stored(item, `${path}.${key}`, depth + 1, ancestors),
    ]);
    const object = Object.fromEntries(entries);
    return TAG in object ? { [TAG]: 'object', value: object } : object;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * The value {@link storedValueOf} wrote, revived: tagged objects back to
 * `undefined`, the special numbers, `Date`s and `Uint8Array`s. JSON it could
 * not have written (an unknown tag, a tag with other fields, a date or base64
 * text that does not read back the same) is `CASSETTE_INVALID`, naming where.
 */
export function revivedValueOf(json: JsonValue, path: string): unknown {
  if (isJsonArray(json)) return json.map((item, i) => revivedValueOf(item, `${path}[${i}]`));
  if (!isJsonObject(json)) return json;
  if (!(TAG in json)) return revivedEntries(json, path);
  const invalid = (why: string) =>
    new ForkpointError(
      'CASSETTE_INVALID',
      `the stored AI SDK value at ${path} is not one forkpoint writes: ${why}; the recording was edited, or ` +
        'written by a later version',
      { details: { field: path } },
    );
  const { [TAG]: tag, value, ...others } = json;
  if (Object.keys(others).length > 0) throw invalid(`a ${TAG} value has no other fields`);
  if (tag === 'undefined' && value === undefined) return undefined;
  if (tag === 'object' && isJsonObject(value)) return revivedEntries(value, path);
  if (typeof value !== 'string') throw invalid(`the ${TAG} value ${JSON.stringify(tag ?? null)} is not known`);
  if (tag === 'number' && value in SPECIAL_NUMBERS) return SPECIAL_NUMBERS[value];
  if (tag === 'date') {
    const date = new Date(value);
    if (Number.isNaN(date.getTime()) || date.toISOString() !== value) throw invalid(`${value} is no ISO date`);
    return date;
  }
  if (tag === 'bytes') {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.toString('base64') !== value) throw invalid('the bytes are not base64');
    return new Uint8Array(bytes);
  }
  throw invalid(`the ${TAG} value ${JSON.stringify(tag ?? null)} is not known`);
}

function revivedEntries(json: JsonObject, path: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).map(([key, item]) => [key, revivedValueOf(item, `${path}.${key}`)]));
}
