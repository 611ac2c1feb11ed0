import OpenAI from 'openai';
import type { JsonObject } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { fromOpenAIChat, fromOpenAIResponses } from '../../../src/providers/index.js';
import type { ProviderSubject } from '../../../src/testing/index.js';
import { startHttpEmulator, type HttpAnswer, type HttpEmulator } from './http-emulator.js';
import { chatSseOf } from './openai-stream-wire.js';
import { chatCompletionOf, errorBodyOf, responseObjectOf, type MintId } from './openai-wire.js';

/** Which of OpenAI's APIs an emulator serves: POST /v1/chat/completions, or POST /v1/responses. */
export type OpenAIApi = 'chat' | 'responses';

const PATHS: Record<OpenAIApi, string> = { chat: '/v1/chat/completions', responses: '/v1/responses' };

/** One answer of the OpenAI emulator: a neutral one, written in the API's format, or a wire body sent as it is. */
export type OpenAIAnswer = HttpAnswer;

/** The OpenAI emulator: a {@link ProviderEmulator} whose script may also hold wire bodies, and that keeps the paths asked. */
export type OpenAIEmulator = HttpEmulator;

/**
 * OpenAI's HTTP API for one of its two endpoints, served on 127.0.0.1 (port 0), answering its script in order,
 * one answer per HTTP request (a retry of the SDK's takes the next). An error is OpenAI's error body with its
 * status; every answer has an `x-request-id`; a 429 carries `retry-after-ms: 0`, which the SDK reads before
 * `retry-after` and obeys, so it retries at once; a drop destroys the socket once the request is read. A chat
 * request with `stream: true` is answered with the API's chunks as an event stream.
 */
export function startOpenAIEmulator(api: OpenAIApi): Promise<OpenAIEmulator> {
  let minted = 0;
  const mint: MintId = (prefix) => `${prefix}${(++minted).toString(36).padStart(6, '0')}`;
  return startHttpEmulator({
    path: PATHS[api],
    encodeResponse: (response, request) =>
      api === 'chat' ? chatCompletionOf(response, mint) : responseObjectOf(response, request, mint),
    // Chat Completions streams (its chunks, usage last when asked for); the Responses API's stream is not written.
    ...(api === 'chat'
      ? {
          encodeStream: (response, request) => chatSseOf(chatCompletionOf(response, mint), includesUsage(request)),
        }
      : {}),
    encodeError: errorBodyOf,
    retryNow: { 'retry-after-ms': '0' },
    headers: () => ({ 'x-request-id': mint('req_') }),
  });
}

/** Whether a Chat Completions request asks for the usage chunk at the end of its stream. */
const includesUsage = (request: JsonObject): boolean =>
  isJsonObject(request.stream_options) && request.stream_options.include_usage === true;

/** An OpenAI client of the real SDK pointed at an emulator, as a user makes one, with the SDK's own retries. */
export const openAIClientFor = (url: string, maxRetries: number): OpenAI =>
  new OpenAI({ apiKey: 'test-key', baseURL: `${url}/v1`, maxRetries });

/** `fromOpenAIChat` over the real SDK, against the Chat Completions emulator. */
export const openAIChatSubject: ProviderSubject = {
  start: () => startOpenAIEmulator('chat'),
  provider: (url, { maxRetries }) => fromOpenAIChat(openAIClientFor(url, maxRetries)),
  model: 'gpt-5.4-mini',
  // Chat Completions sends no reasoning back: a thinking round trip cannot be made over it.
  supports: { thinking: false, refusal: true },
};

/** `fromOpenAIResponses` over the real SDK, against the Responses emulator. */
export const openAIResponsesSubject: ProviderSubject = {
  start: () => startOpenAIEmulator('responses'),
  provider: (url, { maxRetries }) => fromOpenAIResponses(openAIClientFor(url, maxRetries)),
  model: 'gpt-5.4',
  // A reasoning item's encrypted_content is its signature, sent back verbatim in the next request.
  supports: { thinking: true, refusal: true },
};
