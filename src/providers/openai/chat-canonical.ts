import type { ModelParams, ModelRequest } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { assertJsonValue, isJsonArray, isJsonObject } from '../../json/index.js';
import { isForkpointError } from '../../errors/index.js';
import { conversationOf } from './chat-canonical-messages.js';
import { toolsOf } from './chat-canonical-tools.js';
import { unmappedChatRequest } from './chat-wire-refusal.js';
import { OPENAI } from './wire-reading.js';

/**
 * The entry of `params.provider` that holds what a Chat Completions body says and the canonical fields cannot:
 * `systemRole: 'developer'` when the system prompt came as a developer message, `tools` verbatim when a tool is
 * not a plain function definition. No adapter sends it (each sends its own provider's entry only); the request
 * hash covers it.
 */
export const CHAT_WIRE_ENTRY = 'openai-chat-wire';

/**
 * Fields of the body that never change the model's answer, and so are not in the canonical request:
 * - `stream`, `stream_options`: how the answer is delivered (events or one object, a usage chunk at the end),
 *   not what it says; the session keys a streamed call apart and records the stream itself;
 * - `metadata`, `store`: whether and how OpenAI keeps the completion for its dashboard and evals;
 * - `user`, `safety_identifier`: who the end user is, for OpenAI's abuse monitoring;
 * - `prompt_cache_key`, `prompt_cache_retention`: which cache a prompt is looked up in, and for how long;
 *   they change the cost, not the answer (as `cache_control` does for Anthropic).
 * Every other field the body holds is in the canonical request, mapped or verbatim.
 */
export const CHAT_FIELDS_SET_ASIDE: readonly string[] = [
  'stream',
  'stream_options',
  'metadata',
  'store',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
];

// Mapped to canonical fields, so not carried in params.provider.openai as well.
const MAPPED = ['model', 'messages', 'tools', 'max_completion_tokens', 'temperature', 'top_p', 'stop'];

/** A Chat Completions body as forkpoint's canonical request, and what was set aside from it. */
export interface ChatCanonical {
  readonly request: ModelRequest;
  /** Whether the body asked for a stream (`stream: true`). */
  readonly streamed: boolean;
  /** The fields of {@link CHAT_FIELDS_SET_ASIDE} the body holds, verbatim: stored beside a call, never keyed. */
  readonly setAside: JsonObject;
}

/**
 * The inverse of `chatBodyOf`: the body of `POST /chat/completions` (the JSON an OpenAI SDK sends) as the
 * canonical `ModelRequest` a driven run would hash, so that a wrapped agent's own loop is keyed as driven runs
 * are. Where the body says what `chatBodyOf` writes, the result is the request `chatBodyOf` started from;
 * anything else is kept verbatim where the hash covers it (OpenAI provider parts in the conversation,
 * `params.provider.openai`, `params.provider['openai-chat-wire']`), so that no two bodies the model could
 * answer differently share a canonical request. Only {@link CHAT_FIELDS_SET_ASIDE} is left out of it.
 *
 * - `model`; the conversation as `conversationOf` reads it; the tools as `toolsOf` reads them;
 * - `max_completion_tokens` as `maxTokens`; when it is absent (or `null`), `maxTokens` is 0 and
 *   `params.provider.openai.max_completion_tokens` is `null`, which `chatBodyOf` sends as the API's "no limit";
 * - `temperature` and `top_p` when they are numbers (`null` is the API's default, as absent is); `stop` as
 *   `stopSequences` (a string as a list of one, an empty list or `null` as none);
 * - every other field (`tool_choice`, `seed`, `n`, `response_format`, `reasoning_effort`, `max_tokens`,
 *   `service_tier`, `logprobs`, fields the API adds later, ...) verbatim in `params.provider.openai`.
 *
 * A body that is not plain JSON, or that holds a field in a shape the API does not document (a message that is
 * not an object, an unknown role or content part type, a temperature that is not a number, ...), is refused:
 * `PROVIDER_UNMAPPED`, naming the field.
 */
export function chatCanonicalOf(body: JsonObject): ChatCanonical {
  plainJson(body);
  const { model, messages } = body;
  if (typeof model !== 'string') throw unmappedChatRequest('model', model, 'it is not a string');
  if (!isJsonArray(messages)) throw unmappedChatRequest('messages', messages, 'it is not a list');
  const { system, systemRole, messages: conversation } = conversationOf(messages);
  const { tools, verbatim } = toolsOf(body.tools);
  const wire: JsonObject = {
    ...(systemRole === undefined ? {} : { systemRole }),
    ...(verbatim === undefined ? {} : { tools: verbatim }),
  };
  const own = Object.fromEntries(
    Object.entries(body).filter(([key]) => !MAPPED.includes(key) && !CHAT_FIELDS_SET_ASIDE.includes(key)),
  );
  const limit = maxTokensOf(body.max_completion_tokens);
  if (limit === undefined) own.max_completion_tokens = null;
  const provider: Record<string, JsonObject> = {
    ...(Object.keys(own).length === 0 ? {} : { [OPENAI]: own }),
    ...(Object.keys(wire).length === 0 ? {} : { [CHAT_WIRE_ENTRY]: wire }),
  };
  const params: ModelParams = {
    maxTokens: limit ?? 0,
    ...sampling(body),
    ...(Object.keys(provider).length === 0 ? {} : { provider }),
  };
  return {
    request: { model, system, messages: conversation, tools, params },
    streamed: streamedOf(body.stream),
    setAside: Object.fromEntries(Object.entries(body).filter(([key]) => CHAT_FIELDS_SET_ASIDE.includes(key))),
  };
}

function plainJson(body: unknown): void {
  try {
    assertJsonValue(body, 'the request body', 'PROVIDER_UNMAPPED');
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    throw unmappedChatRequest('body', null, error.message);
  }
  if (!isJsonObject(body)) throw unmappedChatRequest('body', body, 'it is not an object');
}

function maxTokensOf(value: JsonValue | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw unmappedChatRequest('max_completion_tokens', value, 'it is not a whole number from 0 up');
  return value;
}

function sampling(body: JsonObject): Pick<ModelParams, 'temperature' | 'topP' | 'stopSequences'> {
  const temperature = numberOf(body.temperature, 'temperature');
  const topP = numberOf(body.top_p, 'top_p');
  const stop = stopOf(body.stop);
  return {
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(stop.length === 0 ? {} : { stopSequences: stop }),
  };
}

function numberOf(value: JsonValue | undefined, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') throw unmappedChatRequest(field, value, 'it is not a number');
  return value;
}

function stopOf(value: JsonValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (isJsonArray(value)) {
    const strings = value.filter((item): item is string => typeof item === 'string');
    if (strings.length === value.length) return strings;
  }
  throw unmappedChatRequest('stop', value, 'it is a string or a list of strings');
}

function streamedOf(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw unmappedChatRequest('stream', value, 'it is not true or false');
  return value;
}
