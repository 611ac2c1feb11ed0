import { isForkpointError } from '../../errors/index.js';
import type { MessagePart, ModelResponse, StopReason } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { CHAT_USAGE, usageOf } from './openai-usage.js';
import { arrayAt, jsonOf, objectAt, OPENAI, parseArguments, stringAt } from './wire-reading.js';

const FINISH_REASONS: Readonly<Record<string, StopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'content_filter',
};

/**
 * A chat completion in the neutral shape, from its first choice (the adapter asks for one):
 * - `message.content` as a text part, its `annotations` (web search citations) as the part's citations;
 * - `message.refusal` as a text part holding the refusal, and the stop reason `refusal` whatever the finish
 *   reason says (it says `stop`);
 * - `message.tool_calls` as tool-use parts, their arguments string parsed (`PROVIDER_UNMAPPED` when it is not
 *   a JSON object); a custom tool's call, or a legacy `function_call`, answers a tool forkpoint never sends,
 *   and is refused;
 * - `message.audio` as an OpenAI provider part `{ type: 'audio', ...audio }`, kept verbatim;
 * - `finish_reason`: stop → end_turn (a stop sequence too: the API does not tell them apart), length →
 *   max_tokens, tool_calls and function_call → tool_use, content_filter → content_filter, anything else →
 *   other, with `providerStopReason` saying it;
 * - usage as `usageOf` reads it: `prompt_tokens` includes the cached tokens, `completion_tokens` the reasoning.
 */
export function chatResponseOf(raw: unknown): ModelResponse {
  const completion = jsonOf(raw, 'the chat completion');
  const choices = arrayAt(completion.choices, 'choices');
  // A request with n > 1: one answer of several would be a choice forkpoint made, and a replay could not say so.
  if (choices.length > 1)
    throw unmappedResponse(
      OPENAI,
      'choices',
      choices.length,
      'it holds more than one choice (the request set n > 1), and forkpoint keeps one answer per call',
    );
  const [first] = choices;
  const choice = objectAt(first, 'choices[0]');
  const message = objectAt(choice.message, 'choices[0].message');
  const content: MessagePart[] = [];
  const text = message.content;
  if (typeof text === 'string') {
    if (text !== '') content.push(textPart(text, message.annotations));
  } else if (text !== null && text !== undefined) {
    throw unmappedResponse(OPENAI, 'choices[0].message.content', text, 'it is neither text nor null');
  }
  const refusal = message.refusal;
  const refused = typeof refusal === 'string' && refusal !== '';
  if (refused) content.push({ type: 'text', text: refusal });
  if (isJsonObject(message.audio))
    content.push({ type: 'provider', provider: OPENAI, block: { type: 'audio', ...message.audio } });
  if (message.function_call !== undefined && message.function_call !== null)
    throw unmappedResponse(
      OPENAI,
      'choices[0].message.function_call',
      message.function_call,
      'forkpoint sends no `functions`, only tools',
    );
  const calls =
    message.tool_calls === undefined || message.tool_calls === null
      ? []
      : arrayAt(message.tool_calls, 'choices[0].message.tool_calls');
  const finish = stringAt(choice.finish_reason, 'choices[0].finish_reason');
  calls.forEach((call, i) =>
    content.push(toolPartOf(call, `choices[0].message.tool_calls[${i}]`, finish === 'length')),
  );
  const mapped = FINISH_REASONS[finish];
  return {
    id: stringAt(completion.id, 'id'),
    model: stringAt(completion.model, 'model'),
    content,
    stopReason: refused ? 'refusal' : (mapped ?? 'other'),
    ...(mapped === undefined && !refused ? { providerStopReason: finish } : {}),
    usage: usageOf(completion.usage, CHAT_USAGE),
  };
}

function textPart(text: string, annotations: JsonValue | undefined): MessagePart {
  const citations = isJsonArray(annotations) ? annotations.filter(isJsonObject) : [];
  return citations.length === 0 ? { type: 'text', text } : { type: 'text', text, citations };
}

/**
 * A tool call as a tool-use part; but a call the token limit cut off (`length`)
 * has arguments that are no JSON yet: it is kept verbatim as an OpenAI part of
 * its own (`truncated_tool_call`), which no request sends back, and the turn
 * reads as what it is, cut at `max_tokens`.
 */
function toolPartOf(value: JsonValue, field: string, cut: boolean): MessagePart {
  if (!cut) return toolUseOf(value, field);
  try {
    return toolUseOf(value, field);
  } catch (error) {
    if (!isForkpointError(error, 'PROVIDER_UNMAPPED') || error.details.field !== `${field}.function.arguments`)
      throw error;
    return { type: 'provider', provider: OPENAI, block: { type: 'truncated_tool_call', call: objectAt(value, field) } };
  }
}

function toolUseOf(value: JsonValue, field: string): MessagePart {
  const call: JsonObject = objectAt(value, field);
  if (call.type !== 'function')
    throw unmappedResponse(OPENAI, field, call, 'only function tool calls answer the tools forkpoint sends');
  const fn = objectAt(call.function, `${field}.function`);
  return {
    type: 'tool_use',
    id: stringAt(call.id, `${field}.id`),
    name: stringAt(fn.name, `${field}.function.name`),
    input: parseArguments(stringAt(fn.arguments, `${field}.function.arguments`), `${field}.function.arguments`),
  };
}
