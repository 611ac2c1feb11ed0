import type { JsonObject, JsonValue } from '../../../src/index.js';
import { isJsonObject } from '../../../src/index.js';
import { contentText, isJsonList } from './json-list.js';
import type { Decision, Transcript } from './decide.js';
import { opaqueToken } from './seeded-random.js';
import { tokensOf } from './token-count.js';

// The OpenAI Chat Completions API as the emulator speaks it (POST /v1/chat/completions), written from the API's
// wire format: tool calls carry their arguments as a JSON string, tool results come back as `tool` messages, and
// `prompt_tokens` counts the cached tokens too.

/** What the emulated model reads of a Chat Completions request body. */
export function openAiTranscript(body: JsonObject): Transcript {
  const messages = isJsonList(body.messages) ? body.messages.filter(isJsonObject) : [];
  const names = new Map<string, string>();
  const results = new Map<string, JsonObject>();
  let system = '';
  let ticketId: string | null = null;
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') system += contentText(message.content);
    if (message.role === 'user' && ticketId === null)
      ticketId = /T-\d+/.exec(contentText(message.content))?.[0] ?? null;
    const calls = isJsonList(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
    for (const call of calls) {
      const fn = isJsonObject(call.function) ? call.function : undefined;
      if (typeof call.id === 'string' && typeof fn?.name === 'string') names.set(call.id, fn.name);
    }
    if (message.role === 'tool' && typeof message.tool_call_id === 'string') {
      const name = names.get(message.tool_call_id);
      const parsed = JSON.parse(contentText(message.content) || 'null') as JsonValue;
      if (name !== undefined && isJsonObject(parsed)) results.set(name, parsed);
    }
  }
  return { system, ticketId, results };
}

/** A chat completion for a decision, with usage as the API reports it. */
export function openAiResponse(body: JsonObject, decision: Decision, random: () => number, call: number): JsonObject {
  const message =
    decision.kind === 'tool'
      ? {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: `call_${opaqueToken(random, 24)}`,
              type: 'function',
              function: { name: decision.name, arguments: JSON.stringify(decision.input) },
            },
          ],
        }
      : { role: 'assistant', content: decision.text, refusal: null };
  // The instructions and tools are the cached prefix from a conversation's second call on.
  const prefix = tokensOf({
    messages: isJsonList(body.messages) ? body.messages.slice(0, 1) : null,
    tools: body.tools ?? null,
  });
  const prompt = tokensOf(body.messages ?? null) + tokensOf(body.tools ?? null);
  const completion = tokensOf(message);
  return {
    id: `chatcmpl-${opaqueToken(random, 24)}`,
    object: 'chat.completion',
    created: 1772611200 + call,
    model: typeof body.model === 'string' ? body.model : 'unknown',
    choices: [{ index: 0, message, finish_reason: decision.kind === 'tool' ? 'tool_calls' : 'stop', logprobs: null }],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: call > 0 ? prefix : 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/** The API's error body. */
export const openAiError = (message: string): JsonObject => ({
  error: { message, type: 'invalid_request_error', code: null },
});
