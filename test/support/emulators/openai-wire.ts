import type { MessagePart, ModelResponse, Usage } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';

// A neutral answer written as OpenAI's HTTP API writes it, from the API's wire format (the API reference and the
// SDK's response types), not from the adapter: a chat completion for POST /v1/chat/completions, a response
// object for POST /v1/responses, with the fields a real answer carries and ids minted afresh on every call.

/** Mints the ids an OpenAI server gives its objects: `chatcmpl-1`, `fc_2`, ... counting across the server's life. */
export type MintId = (prefix: string) => string;

const CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z, in seconds as the API writes it

const texts = (content: readonly MessagePart[]): string[] =>
  content.flatMap((part) => (part.type === 'text' ? [part.text] : []));

/** The API's usage counts: the input count includes the cached tokens, the output count the reasoning ones. */
function wireCounts(usage: Usage): { input: number; cached: number; output: number; reasoning: number } {
  return {
    input: usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0),
    cached: usage.cacheReadTokens ?? 0,
    output: usage.outputTokens,
    reasoning: usage.reasoningTokens ?? 0,
  };
}

const FINISH: Partial<Record<ModelResponse['stopReason'], string>> = {
  tool_use: 'tool_calls',
  max_tokens: 'length',
  content_filter: 'content_filter',
};

/**
 * `response` as a chat completion. Chat Completions has no reasoning blocks and no provider blocks: thinking,
 * redacted thinking and provider parts are not written (a case that needs them is skipped for this API). A
 * refusal is `message.refusal` with `content: null`; several text parts are one content string, a line each.
 */
export function chatCompletionOf(response: ModelResponse, mint: MintId): JsonObject {
  const refused = response.stopReason === 'refusal';
  const text = texts(response.content).join('\n');
  const calls = response.content.flatMap((part) =>
    part.type === 'tool_use'
      ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input) } }]
      : [],
  );
  const counts = wireCounts(response.usage);
  return {
    id: mint('chatcmpl-'),
    object: 'chat.completion',
    created: CREATED,
    model: response.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: refused || text === '' ? null : text,
          refusal: refused ? text : null,
          annotations: [],
          ...(calls.length === 0 ? {} : { tool_calls: calls }),
        },
        logprobs: null,
        finish_reason:
          FINISH[response.stopReason] ??
          (response.stopReason === 'other' ? response.providerStopReason : undefined) ??
          'stop',
      },
    ],
    usage: {
      prompt_tokens: counts.input,
      completion_tokens: counts.output,
      total_tokens: counts.input + counts.output,
      prompt_tokens_details: { cached_tokens: counts.cached, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: counts.reasoning,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_emulated',
  };
}

/**
 * `response` as a response object, its parts as output items in order: a thinking part as a reasoning item
 * (its text the summary, its signature the `encrypted_content`), a redacted one as a reasoning item with no
 * summary, text parts in a row as one message item (`output_text`, or one `refusal` when the model refused),
 * a tool use as a `function_call` item (`call_id` its id, the arguments a JSON string, and an `fc_` id of the
 * item's own), and an OpenAI provider part as the item it holds, verbatim.
 */
export function responseObjectOf(response: ModelResponse, request: JsonObject, mint: MintId): JsonObject {
  const output: JsonObject[] = [];
  const refused = response.stopReason === 'refusal';
  let message: { content: JsonObject[] } | undefined;
  for (const part of response.content) {
    if (part.type === 'text') {
      if (message === undefined) {
        message = { content: [] };
        output.push({
          id: mint('msg_'),
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: message.content,
        });
      }
      message.content.push(
        refused
          ? { type: 'refusal', refusal: part.text }
          : { type: 'output_text', text: part.text, annotations: [], logprobs: [] },
      );
      continue;
    }
    message = undefined;
    if (part.type === 'thinking')
      output.push({
        id: mint('rs_'),
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: part.thinking }],
        encrypted_content: part.signature,
      });
    else if (part.type === 'redacted_thinking')
      output.push({ id: mint('rs_'), type: 'reasoning', summary: [], encrypted_content: part.data });
    else if (part.type === 'tool_use')
      output.push({
        id: mint('fc_'),
        type: 'function_call',
        status: 'completed',
        arguments: JSON.stringify(part.input),
        call_id: part.id,
        name: part.name,
      });
    else if (part.type === 'provider' && part.provider === 'openai') output.push(part.block);
  }
  const incomplete =
    response.stopReason === 'max_tokens'
      ? 'max_output_tokens'
      : response.stopReason === 'content_filter'
        ? 'content_filter'
        : undefined;
  const counts = wireCounts(response.usage);
  return {
    id: mint('resp_'),
    object: 'response',
    created_at: CREATED,
    status: incomplete === undefined ? 'completed' : 'incomplete',
    background: false,
    error: null,
    incomplete_details: incomplete === undefined ? null : { reason: incomplete },
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: response.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: 'disabled',
    usage: {
      input_tokens: counts.input,
      input_tokens_details: { cached_tokens: counts.cached },
      output_tokens: counts.output,
      output_tokens_details: { reasoning_tokens: counts.reasoning },
      total_tokens: counts.input + counts.output,
    },
    metadata: {},
  };
}

/** OpenAI's error body, `{ error: { message, type, param, code } }`, with the type and code its status has. */
export function errorBodyOf(status: number, message: string): JsonObject {
  const [type, code] =
    status === 429
      ? ['requests', 'rate_limit_exceeded']
      : status === 401
        ? ['invalid_request_error', 'invalid_api_key']
        : status >= 500
          ? ['server_error', null]
          : ['invalid_request_error', null];
  return { error: { message, type, param: null, code } };
}
