import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { fromOpenAIChat, fromOpenAIResponses } from '../../../src/providers/index.js';
import type { EmulatedAnswer, ProviderEmulator, ProviderSubject } from '../../../src/testing/index.js';
import { chatCompletionOf, errorBodyOf, responseObjectOf, type MintId } from './openai-wire.js';

/** Which of OpenAI's APIs an emulator serves: POST /v1/chat/completions, or POST /v1/responses. */
export type OpenAIApi = 'chat' | 'responses';

const PATHS: Record<OpenAIApi, string> = { chat: '/v1/chat/completions', responses: '/v1/responses' };

/**
 * One answer of the OpenAI emulator: a neutral one, written in the API's format, or a body sent as it is (200),
 * for what the neutral shape cannot say (a malformed tool call, usage counts of one's choosing).
 */
export type OpenAIAnswer = EmulatedAnswer | { readonly kind: 'wire'; readonly body: JsonObject };

/** The OpenAI emulator: a {@link ProviderEmulator} whose script may also hold wire bodies. */
export interface OpenAIEmulator extends ProviderEmulator {
  script(answers: readonly OpenAIAnswer[]): void;
  /** The paths of every request received so far, oldest first. */
  paths(): readonly string[];
}

/**
 * OpenAI's HTTP API for one of its two endpoints, served on 127.0.0.1 (port 0), answering its script in order,
 * one answer per HTTP request (a retry of the SDK's takes the next). An error is OpenAI's error body with its
 * status and an `x-request-id`; a 429 carries `retry-after-ms: 0`, which the SDK reads before `retry-after` and
 * obeys, so it retries at once; a drop destroys the socket once the request is read, with no answer.
 */
export async function startOpenAIEmulator(api: OpenAIApi): Promise<OpenAIEmulator> {
  let answers: OpenAIAnswer[] = [];
  const bodies: JsonValue[] = [];
  const paths: string[] = [];
  let minted = 0;
  const mint: MintId = (prefix) => `${prefix}${(++minted).toString(36).padStart(6, '0')}`;

  const send = (res: ServerResponse, status: number, body: JsonObject, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': mint('req_'), ...headers });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? null : (JSON.parse(text) as JsonValue);
      bodies.push(body);
      paths.push(req.url ?? '');
      if (req.method !== 'POST' || req.url !== PATHS[api]) {
        send(
          res,
          404,
          errorBodyOf(404, `this emulator serves POST ${PATHS[api]}, not ${req.method ?? ''} ${req.url ?? ''}`),
        );
        return;
      }
      const answer = answers.shift();
      if (answer === undefined) {
        send(res, 500, errorBodyOf(500, `the emulator was not scripted for request ${bodies.length}`));
        return;
      }
      switch (answer.kind) {
        case 'drop':
          req.socket.destroy();
          return;
        case 'error':
          send(
            res,
            answer.status,
            errorBodyOf(answer.status, answer.message),
            answer.status === 429 ? { 'retry-after-ms': '0' } : {},
          );
          return;
        case 'wire':
          send(res, 200, answer.body);
          return;
        case 'response': {
          const request = isJsonObject(body) ? body : {};
          send(
            res,
            200,
            api === 'chat' ? chatCompletionOf(answer.response, mint) : responseObjectOf(answer.response, request, mint),
          );
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    script(next) {
      answers = [...next];
    },
    received: () => [...bodies],
    paths: () => [...paths],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}

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
