import { ForkpointError } from '../../errors/index.js';
import type { JsonValue } from '../../json/index.js';
import { isJsonArray } from '../../json/index.js';
import { revivedValueOf, storedValueOf } from './ai-sdk-stored-values.js';

/**
 * A `doStream` result's parts (`LanguageModelV3StreamPart`, or v2's) as JSON
 * a store keeps, from which {@link revivedStreamParts} gives back parts equal
 * to these, so that a replayed stream hands the user's code what the live one
 * did: `response-metadata`'s `timestamp` a `Date` again, a file's bytes a
 * `Uint8Array`, a property set to `undefined` still there, `raw` parts kept
 * as they came. A part that could not come back as it was (an `error` part's
 * `Error`, say) is `PROVIDER_UNMAPPED`, naming it (`parts[7].error`).
 */
export function storedStreamParts(parts: readonly unknown[]): JsonValue {
  return parts.map((part, i) => {
    checkPart(part, `parts[${i}]`);
    return storedValueOf(part, `parts[${i}]`);
  });
}

/** The stream parts {@link storedStreamParts} stored; JSON it could not have written is `CASSETTE_INVALID`. */
export function revivedStreamParts(json: JsonValue): unknown[] {
  if (!isJsonArray(json)) throw notStored('parts', 'it is not a list of parts');
  return json.map((item, i) => {
    const part = revivedValueOf(item, `parts[${i}]`);
    if (!isPart(part)) throw notStored(`parts[${i}]`, 'it is not an object with a type');
    return part;
  });
}

/**
 * A `doGenerate` result as JSON a store keeps, revived equal by
 * {@link revivedGenerateResult} (its `response.timestamp` a `Date`, a file's
 * bytes a `Uint8Array`), without what a recording must not keep: `request`
 * (the HTTP body sent: the whole conversation again, which the step keeps in
 * its canonical form) and `response.headers` and `response.body` (the raw HTTP answer, which
 * may carry account ids, rate limits, cookies).
 */
export function storedGenerateResult(result: unknown): JsonValue {
  if (!isRecord(result)) throw unmappedResult('it is not an object');
  const { request: _request, response, ...kept } = result;
  if (response === undefined) return storedValueOf(kept, 'result');
  if (!isRecord(response)) throw unmappedResult('its response is not an object');
  const { headers: _headers, body: _body, ...metadata } = response;
  return storedValueOf({ ...kept, response: metadata }, 'result');
}

/** The result {@link storedGenerateResult} stored; JSON it could not have written is `CASSETTE_INVALID`. */
export function revivedGenerateResult(json: JsonValue): Record<string, unknown> {
  const result = revivedValueOf(json, 'result');
  if (!isRecord(result)) throw notStored('result', 'it is not an object');
  return result;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPart = (value: unknown): value is Record<string, unknown> & { readonly type: string } =>
  isRecord(value) && typeof value.type === 'string';

function checkPart(part: unknown, path: string): void {
  if (!isPart(part))
    throw new ForkpointError('PROVIDER_UNMAPPED', `the AI SDK model streamed ${path}, which is no stream part`, {
      details: { field: path },
    });
}

const unmappedResult = (why: string) =>
  new ForkpointError('PROVIDER_UNMAPPED', `the AI SDK model's generate result cannot be stored: ${why}`, {
    details: { field: 'result' },
  });

const notStored = (path: string, why: string) =>
  new ForkpointError(
    'CASSETTE_INVALID',
    `the stored AI SDK value at ${path} is not one forkpoint writes: ${why}; the recording was edited, or written ` +
      'by a later version',
    { details: { field: path } },
  );
