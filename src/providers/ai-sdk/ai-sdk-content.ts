import type { MessagePart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { providerPartOf } from './ai-sdk-provider-parts.js';

/**
 * The neutral parts of a result's content (v2 and v3 alike). Text is text,
 * with Anthropic's citations if it has them; reasoning whose only metadata is
 * @ai-sdk/anthropic's signature or redacted data is thinking or redacted
 * thinking (anthropic-messages-language-model.ts writes them so); a tool call
 * for the harness to run is a tool use. Anything else is kept verbatim as a
 * `provider` part and goes back so.
 */
export function neutralPartsOf(provider: string, content: unknown): MessagePart[] {
  if (!Array.isArray(content)) throw unmappedResponse(provider, 'a content', content, 'it is not an array of parts');
  return content.map((part: unknown) => neutralPartOf(provider, jsonPartOf(provider, part)));
}

function neutralPartOf(provider: string, part: JsonObject): MessagePart {
  switch (part.type) {
    case 'text': {
      if (typeof part.text !== 'string')
        throw unmappedResponse(provider, 'a text part', part, 'its text is not a string');
      const citations = anthropicMetadataOf(part).citations;
      return isJsonArray(citations) && citations.every(isJsonObject)
        ? { type: 'text', text: part.text, citations: citations.filter(isJsonObject) }
        : { type: 'text', text: part.text };
    }
    case 'reasoning':
      return reasoningOf(provider, part);
    case 'tool-call':
      return part.providerExecuted === true ? providerPartOf(provider, part) : toolUseOf(provider, part);
    default:
      if (typeof part.type !== 'string') throw unmappedResponse(provider, 'a content part', part, 'it has no type');
      return providerPartOf(provider, part);
  }
}

/** Reasoning carrying exactly an Anthropic signature, or exactly its redacted data; any other is the provider's own. */
function reasoningOf(provider: string, part: JsonObject): MessagePart {
  const { text, providerMetadata } = part;
  if (typeof text !== 'string') throw unmappedResponse(provider, 'a reasoning part', part, 'its text is not a string');
  const only = isJsonObject(providerMetadata) && Object.keys(providerMetadata).length === 1;
  const anthropic = anthropicMetadataOf(part);
  const keys = Object.keys(anthropic);
  if (only && keys.length === 1 && typeof anthropic.signature === 'string')
    return { type: 'thinking', thinking: text, signature: anthropic.signature };
  if (only && keys.length === 1 && typeof anthropic.redactedData === 'string')
    return { type: 'redacted_thinking', data: anthropic.redactedData };
  return providerPartOf(provider, part);
}

/**
 * A tool call for the harness to run. Its input is JSON text (an empty text
 * is no arguments, as `ai` reads it); one a server tool made on the model's
 * behalf (@ai-sdk/anthropic's `caller` other than `direct`) cannot go back
 * without what the neutral shape drops, so it is not guessed at.
 */
function toolUseOf(provider: string, part: JsonObject): MessagePart {
  const { toolCallId, toolName, input } = part;
  if (typeof toolCallId !== 'string' || typeof toolName !== 'string')
    throw unmappedResponse(provider, 'a tool-call part', part, 'its toolCallId or toolName is not a string');
  const parsed = typeof input === 'string' ? parseInput(input) : undefined;
  if (!isJsonObject(parsed))
    throw unmappedResponse(provider, 'a tool-call part', part, 'its input is not a JSON object');
  const caller = anthropicMetadataOf(part).caller;
  if (isJsonObject(caller) && caller.type !== 'direct')
    throw unmappedResponse(
      provider,
      'a tool-call part',
      part,
      'a server tool made it, which forkpoint cannot send back',
    );
  return { type: 'tool_use', id: toolCallId, name: toolName, input: parsed };
}

function parseInput(input: string): JsonValue | undefined {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return undefined;
  }
}

function anthropicMetadataOf(part: JsonObject): JsonObject {
  const metadata = isJsonObject(part.providerMetadata) ? part.providerMetadata.anthropic : undefined;
  return isJsonObject(metadata) ? metadata : {};
}

/**
 * A value of the result as the plain JSON it stands for: a property set to
 * `undefined` (the SDK's "absent") left out, as JSON leaves it, and a
 * generated file's bytes as base64 (as `ai` sends a file back).
 */
export function plainJsonOf(provider: string, field: string, value: unknown): JsonValue {
  let plain = value;
  if (typeof value === 'object' && value !== null && 'data' in value && value.data instanceof Uint8Array)
    plain = { ...value, data: Buffer.from(value.data).toString('base64') };
  try {
    const text = JSON.stringify(plain) as string | undefined;
    if (text === undefined) throw new Error('it has no JSON form');
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw unmappedResponse(provider, field, value, error instanceof Error ? error.message : String(error));
  }
}

function jsonPartOf(provider: string, part: unknown): JsonObject {
  const json = plainJsonOf(provider, 'a content part', part);
  if (!isJsonObject(json)) throw unmappedResponse(provider, 'a content part', part, 'it is not an object');
  return json;
}
