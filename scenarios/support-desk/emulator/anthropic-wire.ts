import type { JsonObject, JsonValue } from '../../../src/index.js';
import { isJsonObject } from '../../../src/index.js';
import { contentText, isJsonList } from './json-list.js';
import type { Decision, Transcript } from './decide.js';
import { opaqueToken } from './seeded-random.js';
import { tokensOf } from './token-count.js';

// The Anthropic Messages API as the emulator speaks it (POST /v1/messages), written from the API's wire format:
// content blocks in, content blocks out, usage with the prompt cache's reads and writes.

/** What the emulated model reads of a Messages API request body. */
export function anthropicTranscript(body: JsonObject): Transcript {
  const messages = isJsonList(body.messages) ? body.messages.filter(isJsonObject) : [];
  const names = new Map<string, string>();
  const results = new Map<string, JsonObject>();
  for (const message of messages) {
    if (!isJsonList(message.content)) continue;
    for (const block of message.content.filter(isJsonObject)) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string')
        names.set(block.id, block.name);
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const name = names.get(block.tool_use_id);
        const parsed: unknown = JSON.parse(contentText(block.content) || 'null');
        if (name !== undefined && isJsonObject(parsed as JsonValue)) results.set(name, parsed as JsonObject);
      }
    }
  }
  const first = messages[0];
  const ticketId = /T-\d+/.exec(contentText(first?.content))?.[0] ?? null;
  return { system: contentText(body.system), ticketId, results };
}

/** A Messages API response body for a decision, with usage as the API reports it. */
export function anthropicResponse(
  body: JsonObject,
  decision: Decision,
  random: () => number,
  call: number,
): JsonObject {
  const thinking = isJsonObject(body.thinking) && body.thinking.type === 'enabled';
  const content: JsonObject[] = [
    ...(thinking ? [{ type: 'thinking', thinking: decision.thought, signature: opaqueToken(random, 48) }] : []),
    decision.kind === 'tool'
      ? { type: 'tool_use', id: `toolu_${opaqueToken(random, 24)}`, name: decision.name, input: decision.input }
      : { type: 'text', text: decision.text },
  ];
  // The instructions and tools are the cached prefix: written on a run's first call, read on every later one.
  const prefix = tokensOf({ system: body.system ?? null, tools: body.tools ?? null });
  const cached = isJsonObject(body.cache_control);
  const total = tokensOf(body.messages ?? null) + prefix;
  return {
    id: `msg_${opaqueToken(random, 24)}`,
    type: 'message',
    role: 'assistant',
    model: typeof body.model === 'string' ? body.model : 'unknown',
    content,
    stop_reason: decision.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: cached ? total - prefix : total,
      output_tokens: tokensOf(content),
      cache_creation_input_tokens: cached && call === 0 ? prefix : 0,
      cache_read_input_tokens: cached && call > 0 ? prefix : 0,
    },
  };
}

/** The API's error body. */
export const anthropicError = (message: string): JsonObject => ({
  type: 'error',
  error: { type: 'invalid_request_error', message },
});
