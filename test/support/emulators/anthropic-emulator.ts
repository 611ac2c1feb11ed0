import type { MessagePart, ModelResponse, Usage } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import { anthropicSseOf } from './anthropic-stream-wire.js';
import { startHttpEmulator, type HttpEmulator, type WireFormat } from './http-emulator.js';

// Written from the Messages API's wire format (POST /v1/messages: a `Message` object, or
// `{ type: 'error', error: { type, message } }` with the status), not from the adapter's mapping.

/** The API's error `type` for a status, as its error responses name them. */
function errorTypeOf(status: number): string {
  const types: Readonly<Record<number, string>> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

/** A content block of a `Message` as the API writes it. */
function blockOf(part: MessagePart): JsonObject {
  switch (part.type) {
    // The API leaves `citations` out of a text block that cites nothing.
    case 'text':
      return { type: 'text', text: part.text, ...(part.citations === undefined ? {} : { citations: part.citations }) };
    case 'thinking':
      return { type: 'thinking', thinking: part.thinking, signature: part.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: part.data };
    case 'tool_use':
      return { type: 'tool_use', id: part.id, name: part.name, input: part.input, caller: { type: 'direct' } };
    case 'provider':
      return part.block;
    case 'tool_result':
      throw new Error('the emulator was scripted a tool_result in a response: the API never answers one');
  }
}

/** The API's `stop_reason` for a scripted one: its own word when the script gives it. */
function stopReasonOf(response: ModelResponse): string {
  if (response.providerStopReason !== undefined) return response.providerStopReason;
  return response.stopReason === 'context_window_exceeded' ? 'model_context_window_exceeded' : response.stopReason;
}

/** The API's `usage`: unreported cache counts as `null`, thinking tokens in `output_tokens_details`, extras verbatim. */
function usageOf(usage: Usage): JsonObject {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? null,
    cache_read_input_tokens: usage.cacheReadTokens ?? null,
    ...(usage.reasoningTokens === undefined
      ? {}
      : { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }),
    ...usage.provider,
  };
}

/** A neutral response as the `Message` the API would send for it. */
export function anthropicMessageOf(response: ModelResponse): JsonObject {
  return {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content: response.content.map(blockOf),
    stop_reason: stopReasonOf(response),
    stop_sequence: null,
    usage: usageOf(response.usage),
  };
}

/**
 * The Messages API's wire format: `POST /v1/messages`, a `Message` for a
 * response (its event stream when the request says `stream: true`), the API's
 * error body, and on a 429 `retry-after-ms: 1`, which the Anthropic SDK and
 * `ai`'s retry both take, so a retry comes at once.
 */
export const anthropicWire: WireFormat = {
  path: '/v1/messages',
  encodeResponse: anthropicMessageOf,
  encodeStream: (response) => anthropicSseOf(anthropicMessageOf(response)),
  encodeError: (status, message) => ({ type: 'error', error: { type: errorTypeOf(status), message } }),
  retryNow: { 'retry-after-ms': '1' },
};

/**
 * The Messages API on 127.0.0.1 (a free port), answering what it is scripted to; a drop destroys the socket.
 * Typed as the {@link HttpEmulator} it is, whose `sentStream()` gives the event stream text of the last answer.
 */
export const startAnthropicEmulator = (): Promise<HttpEmulator> => startHttpEmulator(anthropicWire);
