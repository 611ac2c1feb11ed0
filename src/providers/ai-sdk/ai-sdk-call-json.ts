import { ForkpointError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { MAX_JSON_DEPTH } from '../../json/index.js';

/**
 * An AI SDK call option forkpoint cannot turn into its canonical request:
 * `PROVIDER_UNMAPPED`, naming the option by its path in the call options
 * (`prompt[2].content[0].type`), saying what was not understood and what to
 * do, with the value (where it is JSON) in `details.data`.
 */
export function unmappedCall(field: string, value: unknown, why: string, todo: string): ForkpointError {
  const data = plainOrNull(value);
  return new ForkpointError(
    'PROVIDER_UNMAPPED',
    `the AI SDK call's ${field} cannot be mapped to forkpoint's request: ${why}; ${todo}`,
    { details: { field, data } },
  );
}

/**
 * A call option as the plain JSON it stands for, so that it is hashed and
 * stored as it is: a property set to `undefined` (the specification's
 * "absent") left out, as the providers leave it out; a `Uint8Array` as its
 * bytes in base64 and a `URL` as its text, which is how the providers send
 * them (and a base64 text never reads as a URL, so neither collides with a
 * string given as it is). Anything else without a JSON form (a function, a
 * `NaN`, a `Date`, a class instance, an `undefined` inside an array, nesting
 * past {@link MAX_JSON_DEPTH}) is refused, naming where: hashing it would
 * collapse it onto another value.
 */
export function callJsonOf(value: unknown, field: string): JsonValue {
  return jsonAt(value, field, 0);
}

/** A call option that must be a JSON object (see {@link callJsonOf}). */
export function callObjectOf(value: unknown, field: string): JsonObject {
  const json = callJsonOf(value, field);
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw unmappedCall(field, value, 'it is not an object', 'give the option as the specification types it');
  return json as JsonObject;
}

function jsonAt(value: unknown, field: string, depth: number): JsonValue {
  const refuse = (why: string) =>
    unmappedCall(field, undefined, why, 'give the option as plain JSON, as the specification types it');
  if (depth > MAX_JSON_DEPTH) throw refuse(`it is nested deeper than ${MAX_JSON_DEPTH} levels`);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw refuse(`${String(value)} is not a JSON number`);
      return value;
    case 'object':
      break;
    default:
      throw refuse(`a ${typeof value} has no JSON form`);
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof URL) return value.href;
  if (Array.isArray(value)) {
    return value.map((item: unknown, i) => {
      if (item === undefined) throw unmappedCall(`${field}[${i}]`, undefined, 'it is undefined', 'leave it out');
      return jsonAt(item, `${field}[${i}]`, depth + 1);
    });
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'an object with a prototype';
    throw refuse(`a ${name} is not a plain object`);
  }
  // Object.fromEntries defines each key as its own property: an assignment would take `__proto__` for the prototype.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .map(([key, child]) => [key, jsonAt(child, `${field}.${key}`, depth + 1)]),
  );
}

function plainOrNull(value: unknown): JsonValue {
  try {
    return value === undefined ? null : callJsonOf(value, '');
  } catch {
    return null;
  }
}
