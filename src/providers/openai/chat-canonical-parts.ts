import type { MessagePart, ProviderPart, TextPart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { assertJsonValue, isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedChatRequest } from './chat-wire-refusal.js';
import { OPENAI } from './wire-reading.js';

// The pieces of a Chat Completions message that the canonical shape has a kind for are mapped to it only when
// the forward mapping (`chatBodyOf`) would write them back exactly so; anything else is kept verbatim as an
// OpenAI provider part, which the request hash covers and `chatBodyOf` never sends. So two bodies that differ
// in anything the model reads never share a canonical request.

/** `block` as an OpenAI provider part. */
export const openAIPart = (block: JsonObject): ProviderPart => ({ type: 'provider', provider: OPENAI, block });

/** A message kept whole, verbatim: a role or a shape the canonical conversation has no place for. */
export const verbatimMessage = (message: JsonObject): ProviderPart => openAIPart({ type: 'message', message });

/** `value` as an object, or `PROVIDER_UNMAPPED` naming `field`. */
export function requestObjectAt(value: JsonValue | undefined, field: string): JsonObject {
  if (!isJsonObject(value)) throw unmappedChatRequest(field, value, 'it is not an object');
  return value;
}

/**
 * The fields of a message besides `taken`, as one provider part (`message_fields`), or none. A field set to
 * `null` is left out: the API reads `null` as "not given", and the SDK's own response message carries
 * `refusal: null` and `audio: null`, which a loop sends back as it got them.
 */
export function restOfMessage(message: JsonObject, taken: readonly string[]): MessagePart[] {
  const rest = Object.fromEntries(
    Object.entries(message).filter(([key, value]) => !taken.includes(key) && value !== null),
  );
  return Object.keys(rest).length === 0 ? [] : [openAIPart({ type: 'message_fields', fields: rest })];
}

// The part types each role's content list may hold, as the API documents them, besides `text`.
const OTHER_PART_TYPES: Readonly<Record<'user' | 'assistant', readonly string[]>> = {
  user: ['image_url', 'input_audio', 'file'],
  assistant: ['refusal'],
};

/**
 * A message's `content` as parts: a string as one text part (the API reads a string and a list of one text
 * part alike), a list part by part: a text part that holds only its text as a text part, any other documented
 * part verbatim (`content_part`). An undocumented part type is refused.
 */
export function contentParts(content: JsonValue, role: 'user' | 'assistant', field: string): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!isJsonArray(content)) throw unmappedChatRequest(field, content, 'content is a string or a list of parts');
  return content.map((value, i): MessagePart => {
    const part = requestObjectAt(value, `${field}[${i}]`);
    if (isPlainText(part)) return { type: 'text', text: part.text };
    if (part.type === 'text' || (typeof part.type === 'string' && OTHER_PART_TYPES[role].includes(part.type)))
      return openAIPart({ type: 'content_part', part });
    throw unmappedChatRequest(
      `${field}[${i}].type`,
      part.type,
      `a ${role} message's content holds ${['text', ...OTHER_PART_TYPES[role]].join(', ')} parts only`,
    );
  });
}

const isPlainText = (part: JsonObject): part is JsonObject & TextPart =>
  part.type === 'text' && typeof part.text === 'string' && Object.keys(part).length === 2;

/**
 * A tool call of an assistant message: a tool-use part when it is a function call whose arguments are the
 * JSON text `chatBodyOf` writes for its input (`JSON.stringify` of an object), verbatim (`tool_call`)
 * otherwise: arguments spelt another way, cut short or not an object are what the model reads, so they are
 * kept as they are rather than parsed into something another spelling shares.
 */
export function toolCallPart(value: JsonValue, field: string): MessagePart {
  const call = requestObjectAt(value, field);
  const fn = call.function;
  if (
    call.type === 'function' &&
    typeof call.id === 'string' &&
    Object.keys(call).length === 3 &&
    isJsonObject(fn) &&
    typeof fn.name === 'string' &&
    typeof fn.arguments === 'string' &&
    Object.keys(fn).length === 2
  ) {
    const input = exactJsonOf(fn.arguments);
    if (isJsonObject(input)) return { type: 'tool_use', id: call.id, name: fn.name, input };
  }
  return openAIPart({ type: 'tool_call', call });
}

/**
 * A tool message's content as a tool result's: the JSON value whose `JSON.stringify` it is (what `chatBodyOf`
 * writes for any result but a string), or the string itself. A string that is the JSON text of a string stays
 * that text, so no two contents map to one value.
 */
export function toolResultContent(text: string): JsonValue {
  const parsed = exactJsonOf(text);
  return parsed === undefined || typeof parsed === 'string' ? text : parsed;
}

// The JSON value `text` is exactly the JSON.stringify of, within forkpoint's depth bound; undefined otherwise.
function exactJsonOf(text: string): JsonValue | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
    assertJsonValue(parsed, 'the JSON text');
  } catch {
    return undefined;
  }
  return JSON.stringify(parsed) === text ? parsed : undefined;
}
