import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject, JsonValue } from '../../../src/index.js';
import { isJsonObject } from '../../../src/index.js';
import { anthropicError, anthropicResponse, anthropicTranscript } from './anthropic-wire.js';
import { decide } from './decide.js';
import type { Transcript } from './decide.js';
import { openAiError, openAiResponse, openAiTranscript } from './openai-wire.js';
import { isJsonList } from './json-list.js';
import { seededRandom } from './seeded-random.js';

/** A running emulator: where it listens, how many requests it answered, and how to stop it. */
export interface SupportEmulator {
  readonly url: string;
  readonly requests: () => number;
  close(): Promise<void>;
}

interface Route {
  readonly transcript: (body: JsonObject) => Transcript;
  readonly respond: (
    body: JsonObject,
    decision: ReturnType<typeof decide>,
    random: () => number,
    call: number,
  ) => JsonObject;
  readonly error: (message: string) => JsonObject;
  /** How many model turns the conversation already holds: the call's position. */
  readonly position: (body: JsonObject) => number;
}

const assistantTurns = (body: JsonObject): number =>
  isJsonList(body.messages) ? body.messages.filter((m) => isJsonObject(m) && m.role === 'assistant').length : 0;

const ROUTES: Readonly<Record<string, Route>> = {
  '/v1/messages': {
    transcript: anthropicTranscript,
    respond: anthropicResponse,
    error: anthropicError,
    position: assistantTurns,
  },
  '/v1/chat/completions': {
    transcript: openAiTranscript,
    respond: openAiResponse,
    error: openAiError,
    position: assistantTurns,
  },
};

/**
 * The support model behind the Anthropic Messages API and the OpenAI Chat
 * Completions API, on 127.0.0.1 (a free port): the real SDKs talk to it as to
 * the provider, and it answers from the conversation alone, its wording
 * drawn from `seed` and the call's position. It never reaches the network.
 */
export async function startSupportEmulator(seed: number): Promise<SupportEmulator> {
  let requests = 0;
  const server = createServer((request, response) => {
    void answer(request, response);
  });
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests++;
    const route = ROUTES[request.url?.split('?')[0] ?? ''];
    const send = (status: number, body: JsonValue) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (route === undefined || request.method !== 'POST') {
      send(404, { error: { message: `the support emulator serves POST ${Object.keys(ROUTES).join(' and ')}` } });
      return;
    }
    let body: JsonValue;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonValue;
    } catch {
      send(400, route.error('the request body is not JSON'));
      return;
    }
    if (!isJsonObject(body)) {
      send(400, route.error('the request body is not a JSON object'));
      return;
    }
    const call = route.position(body);
    const random = seededRandom(seed, call);
    send(200, route.respond(body, decide(route.transcript(body), random), random, call));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
