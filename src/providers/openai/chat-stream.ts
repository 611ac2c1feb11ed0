import type { ModelResponse } from '../../conversation/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { parseSseText, sseJsonOf } from '../sse-events.js';
import { chatResponseOf } from './chat-response.js';
import { arrayAt, objectAt, OPENAI } from './wire-reading.js';

/** The one choice being assembled: its message so far, its tool calls by index, and its other fields. */
interface ChoiceAssembly {
  readonly fields: Record<string, JsonValue>;
  readonly message: Record<string, JsonValue>;
  readonly calls: (Record<string, JsonValue> & { function: Record<string, JsonValue> })[];
  logprobs: JsonValue;
  finish: JsonValue;
}

const DELTA_FIELDS: ReadonlySet<string> = new Set(['role', 'content', 'refusal', 'tool_calls']);

/**
 * The `ChatCompletion` a Chat Completions event stream (`stream: true`) carries, as the SDK's
 * `finalChatCompletion()` assembles it and as the API would have answered without streaming: each
 * `data: {chunk}` event adds to it and `data: [DONE]` ends it.
 * - the chunks' own fields (`id`, `model`, `created`, `system_fingerprint`, `service_tier`) are the
 *   completion's, the latest chunk's value kept; `usage` is the chunk that has one (the last chunk, with no
 *   choices, when the request asked for `stream_options: { include_usage: true }`);
 * - `delta.content` and `delta.refusal` are appended; `delta.role` is the message's role;
 * - `delta.tool_calls` are merged by their `index`: the id, type and function name from the delta that has them,
 *   the `function.arguments` pieces appended in order;
 * - `finish_reason` is the last one a chunk gave; `logprobs` lists are appended.
 *
 * A chunk carrying `error`, or a stream that ends before `[DONE]`, is `PROVIDER_FAILED`: the call has no answer.
 * What would be guessed at is `PROVIDER_UNMAPPED`, naming the event: a choice of `index` other than 0 (the
 * request asked for `n` > 1; forkpoint maps one choice), a delta field this does not know (`audio`,
 * `function_call`: what it says would be lost), a tool call named two ways, an event after `[DONE]`.
 */
export function chatCompletionOfSse(text: string): JsonObject {
  const fields: Record<string, JsonValue> = {};
  let usage: JsonValue | undefined;
  let choice: ChoiceAssembly | undefined;
  let done = false;
  for (const [position, event] of parseSseText(text).entries()) {
    const where = `event ${position} of the stream`;
    if (done) throw unmappedResponse(OPENAI, where, event.data, 'it comes after [DONE]');
    // The SDK reads every event but [DONE] as a chunk, whatever its SSE name.
    if (event.data === '[DONE]') {
      done = true;
      continue;
    }
    const chunk = objectAt(sseJsonOf(event, position, OPENAI), where);
    if (chunk.error !== undefined && chunk.error !== null) throw failedMidStream(chunk.error);
    const { choices, usage: counts, object: _object, obfuscation: _obfuscation, ...rest } = chunk;
    Object.assign(fields, rest);
    if (counts !== undefined && counts !== null) usage = counts;
    for (const [i, value] of arrayAt(choices, `${where}.choices`).entries()) {
      const at = `${where}.choices[${i}]`;
      const delta = objectAt(value, at);
      if (delta.index !== 0)
        throw unmappedResponse(OPENAI, `${at}.index`, delta.index ?? null, 'forkpoint maps one choice (n = 1)');
      choice ??= { fields: {}, message: {}, calls: [], logprobs: null, finish: null };
      applyChoice(choice, delta, at);
    }
  }
  if (!done)
    throw new ForkpointError(
      'PROVIDER_FAILED',
      `the ${OPENAI} event stream ended before [DONE]: the completion is not whole (the connection was cut, or ` +
        'the recording was); ask again, or resume the run',
      { details: { data: text } },
    );
  return {
    ...fields,
    object: 'chat.completion',
    choices: choice === undefined ? [] : [choiceOf(choice)],
    ...(usage === undefined ? {} : { usage }),
  };
}

/**
 * {@link chatCompletionOfSse}, mapped to the neutral shape as a non-streamed completion is. A stream carries
 * usage only when the request asked for it: without it there are no token counts to record, which is
 * `PROVIDER_UNMAPPED` saying so.
 */
export function chatResponseOfSse(text: string): ModelResponse {
  const completion = chatCompletionOfSse(text);
  if (completion.usage === undefined)
    throw unmappedResponse(
      OPENAI,
      'usage',
      null,
      'the stream carries no usage chunk: ask for one with stream_options: { include_usage: true }',
    );
  return chatResponseOf(completion);
}

function applyChoice(choice: ChoiceAssembly, value: JsonObject, at: string): void {
  const { index: _index, delta, finish_reason: finish, logprobs, ...other } = value;
  Object.assign(choice.fields, other);
  if (finish !== undefined && finish !== null) choice.finish = finish;
  if (logprobs !== undefined && logprobs !== null) choice.logprobs = appendedLogprobs(choice.logprobs, logprobs, at);
  if (delta === undefined || delta === null) return;
  const fields = objectAt(delta, `${at}.delta`);
  const unknown = Object.keys(fields).find((name) => !DELTA_FIELDS.has(name) && fields[name] !== null);
  if (unknown !== undefined)
    throw unmappedResponse(OPENAI, `${at}.delta.${unknown}`, fields[unknown] ?? null, 'forkpoint does not assemble it');
  const { message } = choice;
  if (typeof fields.role === 'string') message.role = fields.role;
  for (const name of ['content', 'refusal'] as const) {
    const piece = fields[name];
    if (typeof piece === 'string') message[name] = `${typeof message[name] === 'string' ? message[name] : ''}${piece}`;
    else if (piece !== undefined && piece !== null)
      throw unmappedResponse(OPENAI, `${at}.delta.${name}`, piece, 'it is neither text nor null');
  }
  if (fields.tool_calls !== undefined && fields.tool_calls !== null)
    for (const [i, call] of arrayAt(fields.tool_calls, `${at}.delta.tool_calls`).entries())
      mergeCall(choice, objectAt(call, `${at}.delta.tool_calls[${i}]`), `${at}.delta.tool_calls[${i}]`);
}

/** One tool call delta into the call of its `index`: each name said once (or again the same), arguments appended. */
function mergeCall(choice: ChoiceAssembly, delta: JsonObject, at: string): void {
  const { index, id, type, function: fn, ...rest } = delta;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > choice.calls.length)
    throw unmappedResponse(OPENAI, `${at}.index`, index ?? null, `tool calls are numbered in order from 0`);
  const call = (choice.calls[index] ??= { function: {} });
  Object.assign(call, rest);
  const named = (target: Record<string, JsonValue>, name: string, value: JsonValue | undefined, field: string) => {
    if (value === undefined || value === null) return;
    if (target[name] !== undefined && target[name] !== value)
      throw unmappedResponse(
        OPENAI,
        field,
        value,
        `the call was already given another ${name}, ${JSON.stringify(target[name])}`,
      );
    target[name] = value;
  };
  named(call, 'id', id, `${at}.id`);
  named(call, 'type', type, `${at}.type`);
  if (fn === undefined || fn === null) return;
  const { name, arguments: piece, ...fnRest } = objectAt(fn, `${at}.function`);
  Object.assign(call.function, fnRest);
  named(call.function, 'name', name, `${at}.function.name`);
  if (typeof piece === 'string') {
    const sofar = call.function.arguments;
    call.function.arguments = `${typeof sofar === 'string' ? sofar : ''}${piece}`;
  } else if (piece !== undefined && piece !== null)
    throw unmappedResponse(OPENAI, `${at}.function.arguments`, piece, 'it is not a string');
}

function choiceOf(choice: ChoiceAssembly): JsonObject {
  const { message, calls } = choice;
  return {
    ...choice.fields,
    index: 0,
    message: {
      ...message,
      content: message.content ?? null,
      refusal: message.refusal ?? null,
      ...(calls.length === 0 ? {} : { tool_calls: calls.map((call) => ({ ...call, function: { ...call.function } })) }),
    },
    logprobs: choice.logprobs,
    finish_reason: choice.finish,
  };
}

/** Token log probabilities arrive a list per chunk: `content` and `refusal` lists appended, other fields kept. */
function appendedLogprobs(sofar: JsonValue, next: JsonValue, at: string): JsonValue {
  const added = objectAt(next, `${at}.logprobs`);
  if (!isJsonObject(sofar)) return added;
  const merged: Record<string, JsonValue> = { ...sofar, ...added };
  for (const name of ['content', 'refusal']) {
    const [before, after] = [sofar[name], added[name]];
    if (isJsonArray(before) && isJsonArray(after)) merged[name] = [...before, ...after];
    else if (isJsonArray(before) && (after === undefined || after === null)) merged[name] = before;
  }
  return merged;
}

/** An `error` chunk mid-stream: the call failed after it started. */
function failedMidStream(error: JsonValue): ForkpointError {
  const message = isJsonObject(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
  return new ForkpointError(
    'PROVIDER_FAILED',
    `${OPENAI} failed mid-stream: ${message}; the completion is not whole, ask again or resume the run`,
    { details: { data: error } },
  );
}
