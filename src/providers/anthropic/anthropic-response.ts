import type { MessagePart, ModelResponse, StopReason, Usage } from '../../conversation/index.js';
import { STOP_REASONS } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { assertJsonValue, isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { ANTHROPIC } from './anthropic-request.js';
import { envelopePartOf } from './anthropic-envelope.js';

const unmapped = (field: string, value: unknown, why: string) => unmappedResponse(ANTHROPIC, field, value, why);

/**
 * The neutral response of an Anthropic `Message`. Every block kind the neutral
 * shape has a kind for maps to it; any other (a server tool's call or result,
 * a kind the API adds later) becomes a `provider` part holding the block
 * verbatim, so nothing is dropped. What cannot be mapped without guessing
 * (a block with no type, a text that is not a string, a stop reason of
 * `null`) is `PROVIDER_UNMAPPED`, with the value in the error.
 */
export function neutralResponseOf(message: unknown): ModelResponse {
  try {
    assertJsonValue(message, 'the message', 'PROVIDER_UNMAPPED');
  } catch (error) {
    throw unmapped('a message', message, error instanceof Error ? error.message : String(error));
  }
  if (!isJsonObject(message)) throw unmapped('a message', message, 'it is not a JSON object');
  const { id, model, content, stop_reason: stopReason, usage } = message;
  if (typeof id !== 'string') throw unmapped('a message id', id, 'it is not a string');
  if (typeof model !== 'string') throw unmapped('a model', model, 'it is not a string');
  if (!isJsonArray(content)) throw unmapped('a content', content, 'it is not an array of blocks');
  const envelope = envelopePartOf(message, ANTHROPIC);
  return {
    id,
    model,
    content: envelope === undefined ? content.map(neutralPartOf) : [...content.map(neutralPartOf), envelope],
    ...stopReasonOf(stopReason),
    usage: usageOf(usage),
  };
}

function neutralPartOf(block: JsonValue): MessagePart {
  if (!isJsonObject(block) || typeof block.type !== 'string')
    throw unmapped('a content block', block, 'it has no type');
  switch (block.type) {
    case 'text':
      return textOf(block);
    case 'thinking':
      if (typeof block.thinking !== 'string' || typeof block.signature !== 'string')
        throw unmapped('a thinking block', block, 'its thinking or signature is not a string');
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      if (typeof block.data !== 'string')
        throw unmapped('a redacted_thinking block', block, 'its data is not a string');
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return toolUseOf(block);
    default:
      return { type: 'provider', provider: ANTHROPIC, block };
  }
}

function textOf(block: JsonObject): MessagePart {
  const { text, citations } = block;
  if (typeof text !== 'string') throw unmapped('a text block', block, 'its text is not a string');
  // The API writes `citations: null` (or leaves it out) for a text that cites nothing.
  if (citations === undefined || citations === null) return { type: 'text', text };
  if (!isJsonArray(citations) || !citations.every(isJsonObject))
    throw unmapped('a text block', block, 'its citations are not a list of objects');
  return { type: 'text', text, citations: citations.filter(isJsonObject) };
}

/**
 * A tool call the harness answers. One the model made itself (`caller` absent
 * or `direct`, the default) maps to a neutral `tool_use`; one a server tool
 * made on the model's behalf, or a toolset member's, carries what the neutral
 * shape cannot send back, so it is not guessed at.
 */
function toolUseOf(block: JsonObject): MessagePart {
  const { id, name, input, caller, toolset_name: toolset } = block;
  if (typeof id !== 'string' || typeof name !== 'string')
    throw unmapped('a tool_use block', block, 'its id or name is not a string');
  if (!isJsonObject(input)) throw unmapped('a tool_use block', block, 'its input is not a JSON object');
  const direct = caller === undefined || caller === null || (isJsonObject(caller) && caller.type === 'direct');
  if (!direct || (toolset !== undefined && toolset !== null))
    throw unmapped(
      'a tool_use block',
      block,
      'it is called by a server tool or a toolset, which forkpoint cannot send back',
    );
  return { type: 'tool_use', id, name, input };
}

const NEUTRAL_STOP_REASONS: ReadonlySet<string> = new Set<string>(STOP_REASONS);
const isStopReason = (value: string): value is StopReason => NEUTRAL_STOP_REASONS.has(value);

/**
 * The neutral stop reason of the API's `stop_reason`: a name the neutral shape
 * has is kept as it is; `model_context_window_exceeded` is
 * `context_window_exceeded`, keeping the API's word beside it; any other is
 * `other`, with the API's word.
 */
export function stopReasonOf(stopReason: JsonValue | undefined): {
  stopReason: StopReason;
  providerStopReason?: string;
} {
  if (typeof stopReason !== 'string')
    throw unmapped('a stop_reason', stopReason ?? null, 'a finished message always says why it stopped');
  if (stopReason === 'model_context_window_exceeded')
    return { stopReason: 'context_window_exceeded', providerStopReason: stopReason };
  if (isStopReason(stopReason)) return { stopReason };
  return { stopReason: 'other', providerStopReason: stopReason };
}

/**
 * The neutral usage of the API's: `input_tokens` is already the uncached
 * input (the API counts cache reads and writes apart), so each count maps one
 * to one, and `output_tokens_details.thinking_tokens` (a part of
 * `output_tokens`) is the reasoning; a count the API left out or wrote as
 * `null` stays absent. The API's own object is kept whole under `provider`.
 */
export function usageOf(usage: JsonValue | undefined): Usage {
  if (!isJsonObject(usage)) throw unmapped('a usage', usage ?? null, 'it is not an object');
  const { input_tokens: input, output_tokens: output } = usage;
  if (!isCount(input) || !isCount(output))
    throw unmapped('a usage', usage, 'its input_tokens or output_tokens is not a token count');
  const cacheRead = optionalCount(usage, 'cache_read_input_tokens');
  const cacheWrite = optionalCount(usage, 'cache_creation_input_tokens');
  const details = usage.output_tokens_details;
  const reasoning = isJsonObject(details) ? optionalCount(details, 'thinking_tokens') : undefined;
  return {
    inputTokens: input,
    outputTokens: output,
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    provider: usage,
  };
}

function optionalCount(counts: JsonObject, name: string): number | undefined {
  const value = counts[name];
  if (value === undefined || value === null) return undefined;
  if (!isCount(value)) throw unmapped('a usage', counts, `its ${name} is not a token count`);
  return value;
}

const isCount = (value: JsonValue | undefined): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
