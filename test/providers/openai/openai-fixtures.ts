import type { Message, ModelParams, ModelRequest } from '../../../src/conversation/index.js';
import { ForkpointError } from '../../../src/errors/index.js';
import type { JsonObject } from '../../../src/json/index.js';

/** A neutral request: one tool, a system prompt, the given conversation and parameters. */
export function requestOf(
  messages: readonly Message[],
  params: Partial<ModelParams> = {},
  system = 'Be brief.',
): ModelRequest {
  return {
    model: 'gpt-5.4',
    system,
    messages,
    tools: [
      {
        name: 'look_up',
        description: 'Looks a ticket up.',
        inputSchema: { type: 'object', properties: { ticket: { type: 'string' } } },
      },
    ],
    params: { maxTokens: 512, ...params },
  };
}

/** A user turn of one text. */
export const userText = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/** The ForkpointError `work` rejects with (anything else it rejects with is rethrown; resolving fails). */
export async function rejection(work: Promise<unknown>): Promise<ForkpointError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ForkpointError) return error;
    throw error;
  }
  throw new Error('the promise resolved');
}

/** A chat completion as OpenAI sends one, its first choice's message and finish reason and its usage replaced. */
export function chatCompletion(message: JsonObject, finishReason: string, usage?: JsonObject): JsonObject {
  return {
    id: 'chatcmpl-wire',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'gpt-5.4-mini-2026-03-05',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null, annotations: [], ...message },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: usage ?? { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    service_tier: 'default',
  };
}

/** A response object as OpenAI sends one, its output, status and usage replaced. */
export function responseObject(output: readonly JsonObject[], fields: JsonObject = {}): JsonObject {
  return {
    id: 'resp_wire',
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-5.4-2026-03-05',
    output,
    parallel_tool_calls: true,
    store: false,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    },
    ...fields,
  };
}
