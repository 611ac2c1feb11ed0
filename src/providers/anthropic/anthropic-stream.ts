import type { ModelResponse } from '../../conversation/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject, parseJsonInput } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { parseSseText, sseJsonOf } from '../sse-events.js';
import { ANTHROPIC } from './anthropic-request.js';
import { neutralResponseOf } from './anthropic-response.js';

const unmapped = (field: string, value: JsonValue, why: string) => unmappedResponse(ANTHROPIC, field, value, why);

/** A content block being streamed: the block so far, and the tool input's JSON text when deltas carry it. */
interface OpenBlock {
  block: Record<string, JsonValue>;
  json?: string;
  stopped: boolean;
}

/** What is assembled so far: the message of `message_start`, its blocks, and whether `message_stop` came. */
interface Assembly {
  message?: Record<string, JsonValue>;
  readonly blocks: OpenBlock[];
  stopped: boolean;
}

/**
 * The `Message` a Messages API event stream (`stream: true`) carries, as the
 * SDK's `finalMessage()` assembles it and as the API would have answered
 * without streaming:
 * - `message_start` gives the message; `content_block_start` opens each block, in order;
 * - `content_block_delta` extends one: `text_delta` and `thinking_delta` append, `citations_delta` adds a
 *   citation, `signature_delta` sets the signature, `input_json_delta` appends to the tool input's JSON text,
 *   which `content_block_stop` parses (the empty text is `{}`, as the SDK reads it);
 * - `message_delta` sets the stop reason, stop sequence and the other fields it has a value for, and its usage
 *   counts, which are cumulative totals, replace `message_start`'s (a count it leaves out or writes as `null`
 *   keeps the earlier one);
 * - `message_stop` ends it; `ping` says nothing.
 *
 * An `error` event, or a stream that ends before `message_stop`, is `PROVIDER_FAILED` (the call has no answer;
 * a retry or a resume asks again). Anything that would be guessed at is `PROVIDER_UNMAPPED`, naming the event:
 * an event or delta type this does not know (what it says would be lost), a delta for a block that is not
 * open or not of its kind, tool input that is not JSON, an event after `message_stop`.
 */
export function anthropicMessageOfSse(text: string): JsonObject {
  const assembly: Assembly = { blocks: [], stopped: false };
  parseSseText(text).forEach((event, position) => {
    const data = sseJsonOf(event, position, ANTHROPIC);
    if (!isJsonObject(data) || typeof data.type !== 'string')
      throw unmapped(`event ${position} of the stream`, data, 'it is not an object with a type');
    if (event.event !== undefined && event.event !== data.type)
      throw unmapped(`event ${position} of the stream`, data, `its SSE name ${event.event} is not its type`);
    if (assembly.stopped) throw unmapped(`event ${position} of the stream`, data, 'it comes after message_stop');
    apply(assembly, data, `event ${position} of the stream (${data.type})`);
  });
  const { message } = assembly;
  if (message === undefined || !assembly.stopped)
    throw new ForkpointError(
      'PROVIDER_FAILED',
      `the ${ANTHROPIC} event stream ended before message_stop` +
        `${message === undefined ? ', before message_start even' : ''}: the message is not whole (the connection ` +
        'was cut, or the recording was); ask again, or resume the run',
      { details: { data: text } },
    );
  return { ...message, content: assembly.blocks.map(({ block }) => block) };
}

/** {@link anthropicMessageOfSse}, mapped to the neutral shape as a non-streamed `Message` is. */
export const neutralResponseOfAnthropicSse = (text: string): ModelResponse =>
  neutralResponseOf(anthropicMessageOfSse(text));

function apply(assembly: Assembly, event: JsonObject, where: string): void {
  if (event.type === 'ping') return;
  if (event.type === 'error') throw failedMidStream(event);
  if (event.type === 'message_start') {
    if (assembly.message !== undefined) throw unmapped(where, event, 'the message had already started');
    if (!isJsonObject(event.message) || !isJsonArray(event.message.content))
      throw unmapped(where, event, 'its message is not an object with a content list');
    assembly.message = { ...event.message };
    // A message may start with blocks already whole (the SDK keeps them): they are the first blocks.
    for (const block of event.message.content) assembly.blocks.push({ block: blockOf(block, where), stopped: true });
    return;
  }
  const { message } = assembly;
  if (message === undefined) throw unmapped(where, event, 'it comes before message_start');
  switch (event.type) {
    case 'content_block_start':
      if (event.index !== assembly.blocks.length)
        throw unmapped(where, event, `blocks start in order, and the next is ${assembly.blocks.length}`);
      assembly.blocks.push({ block: blockOf(event.content_block, where), stopped: false });
      return;
    case 'content_block_delta':
      applyDelta(openBlock(assembly, event, where), event, where);
      return;
    case 'content_block_stop': {
      const open = openBlock(assembly, event, where);
      open.stopped = true;
      if (open.json !== undefined) open.block.input = toolInputOf(open.json, where);
      return;
    }
    case 'message_delta':
      if (!isJsonObject(event.delta)) throw unmapped(where, event, 'its delta is not an object');
      Object.assign(message, set(event.delta));
      if (event.usage !== undefined) {
        if (!isJsonObject(event.usage) || !isJsonObject(message.usage))
          throw unmapped(where, event, 'its usage, or the message_start usage it updates, is not an object');
        message.usage = { ...message.usage, ...set(event.usage) };
      }
      return;
    case 'message_stop':
      if (assembly.blocks.some((open) => !open.stopped))
        throw unmapped(where, event, 'a content block was never stopped');
      assembly.stopped = true;
      return;
    default:
      throw unmapped(where, event, 'forkpoint does not know this event, and would lose what it says');
  }
}

function applyDelta(open: OpenBlock, event: JsonObject, where: string): void {
  const { delta } = event;
  const { block } = open;
  if (!isJsonObject(delta)) throw unmapped(where, event, 'its delta is not an object');
  const misfit = (field: string) =>
    unmapped(where, event, `it carries no string ${field}, or its block (${JSON.stringify(block.type)}) takes none`);
  switch (delta.type) {
    case 'text_delta':
      if (block.type !== 'text' || typeof block.text !== 'string' || typeof delta.text !== 'string')
        throw misfit('text');
      block.text = block.text + delta.text;
      return;
    case 'thinking_delta':
      if (block.type !== 'thinking' || typeof block.thinking !== 'string' || typeof delta.thinking !== 'string')
        throw misfit('thinking');
      block.thinking = block.thinking + delta.thinking;
      return;
    case 'signature_delta':
      if (block.type !== 'thinking' || typeof delta.signature !== 'string') throw misfit('signature');
      block.signature = delta.signature;
      return;
    case 'citations_delta': {
      const { citations } = block;
      if (block.type !== 'text' || !isJsonObject(delta.citation)) throw misfit('citation');
      block.citations = [...(isJsonArray(citations) ? citations : []), delta.citation];
      return;
    }
    case 'input_json_delta':
      // Every block whose input streams (a tool_use, a server tool's call) starts with an input.
      if (!('input' in block) || typeof delta.partial_json !== 'string') throw misfit('partial_json');
      open.json = (open.json ?? '') + delta.partial_json;
      return;
    default:
      throw unmapped(where, event, 'forkpoint does not know this delta, and would lose what it says');
  }
}

function openBlock(assembly: Assembly, event: JsonObject, where: string): OpenBlock {
  const open = typeof event.index === 'number' ? assembly.blocks[event.index] : undefined;
  if (open === undefined || open.stopped) throw unmapped(where, event, 'its index names no open content block');
  return open;
}

function blockOf(value: JsonValue | undefined, where: string): Record<string, JsonValue> {
  if (!isJsonObject(value) || typeof value.type !== 'string')
    throw unmapped(where, value ?? null, 'its content block is not an object with a type');
  return { ...value };
}

function toolInputOf(json: string, where: string): JsonValue {
  if (json === '') return {};
  try {
    return parseJsonInput(json, 'the tool input it streamed', 'PROVIDER_UNMAPPED');
  } catch (error) {
    throw unmapped(where, json, error instanceof Error ? error.message : String(error));
  }
}

// A message_delta's fields that say something: `null` is "nothing new", never a reset of what came before.
const set = (fields: JsonObject): JsonObject =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));

/** The API's `error` event mid-stream (`overloaded_error`, `api_error`): the call failed after it started. */
function failedMidStream(event: JsonObject): ForkpointError {
  const error = isJsonObject(event.error) ? event.error : {};
  const kind = typeof error.type === 'string' ? error.type : 'error';
  const words = typeof error.message === 'string' ? error.message : JSON.stringify(event.error ?? null);
  return new ForkpointError(
    'PROVIDER_FAILED',
    `${ANTHROPIC} failed mid-stream (${kind}): ${words}; the message is not whole, ask again or resume the run`,
    { details: { data: event } },
  );
}
