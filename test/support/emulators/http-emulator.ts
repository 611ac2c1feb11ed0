import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatedAnswer, ProviderEmulator } from '../../../src/testing/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';

/**
 * One answer an emulator gives: a neutral one, written in its provider's wire format (as an event stream when
 * the request asks for `stream: true`), a body sent as it is (200), for what the neutral shape cannot say (a
 * malformed tool call, usage counts of one's choosing), or an event stream's text sent as it is (200,
 * `text/event-stream`), for a stream that fails or is cut short.
 */
export type HttpAnswer =
  | EmulatedAnswer
  | { readonly kind: 'wire'; readonly body: JsonObject }
  | { readonly kind: 'sse'; readonly text: string };

/** How one provider's HTTP API writes an answer: the path it serves, a response body, an error body. */
export interface WireFormat {
  /** The request path it answers, e.g. `/v1/messages`. */
  readonly path: string;
  /** A neutral response in the API's format; `request` is the body it answers (some formats echo parts of it). */
  readonly encodeResponse: (
    answer: Extract<EmulatedAnswer, { kind: 'response' }>['response'],
    request: JsonObject,
  ) => JsonValue;
  /**
   * A neutral response as the event stream the API sends when a request asks for `stream: true`; a format
   * without one answers such a request with a 400, so that no test mistakes a JSON body for a stream.
   */
  readonly encodeStream?: (
    answer: Extract<EmulatedAnswer, { kind: 'response' }>['response'],
    request: JsonObject,
  ) => string;
  readonly encodeError: (status: number, message: string) => JsonValue;
  /** Headers of a 429 that make the SDK retry at once. */
  readonly retryNow: Readonly<Record<string, string>>;
  /** Headers of every answer (a request id, say). */
  readonly headers?: () => Readonly<Record<string, string>>;
}

/** An emulator of one API: a {@link ProviderEmulator} whose script may also hold wire bodies, and that keeps the paths asked. */
export interface HttpEmulator extends ProviderEmulator {
  script(answers: readonly HttpAnswer[]): void;
  /** The paths of every request received so far, oldest first. */
  paths(): readonly string[];
  /** The event stream text sent in answer to the last request; undefined when that answer was not a stream. */
  sentStream(): string | undefined;
}

/**
 * A provider's HTTP API on 127.0.0.1 (port 0), answering what it is scripted
 * to in order, one answer per HTTP request (a retry of the SDK's takes the
 * next), and keeping every request body: the shared part of the emulators the
 * provider tests start and stop. A drop destroys the socket once the request
 * is read. It never reaches the network.
 */
export async function startHttpEmulator(wire: WireFormat): Promise<HttpEmulator> {
  let queue: HttpAnswer[] = [];
  const received: JsonValue[] = [];
  const paths: string[] = [];
  let sent: string | undefined;
  const server = createServer((request, response) => {
    void answer(request, response);
  });
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? null : (JSON.parse(text) as JsonValue);
    received.push(body);
    paths.push(request.url ?? '');
    sent = undefined;
    const send = (status: number, answer: JsonValue, headers: Readonly<Record<string, string>> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...wire.headers?.(), ...headers });
      response.end(JSON.stringify(answer));
    };
    // One write per event, as a server flushes each one: the SDK reads the stream in pieces, not as one body.
    const stream = (text: string) => {
      sent = text;
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        ...wire.headers?.(),
      });
      for (const event of text.split(/(?<=\n\n)/)) response.write(event);
      response.end();
    };
    const streamed = isJsonObject(body) && body.stream === true;
    if (request.method !== 'POST' || request.url?.split('?')[0] !== wire.path) {
      send(404, wire.encodeError(404, `the emulator serves POST ${wire.path}, not ${request.method} ${request.url}`));
      return;
    }
    const next = queue.shift();
    if (next === undefined)
      send(500, wire.encodeError(500, 'the emulator was asked more than it was scripted to answer'));
    else if (next.kind === 'drop') request.socket.destroy();
    else if (next.kind === 'error')
      send(next.status, wire.encodeError(next.status, next.message), next.status === 429 ? wire.retryNow : {});
    else if (next.kind === 'wire') send(200, next.body);
    else if (next.kind === 'sse') stream(next.text);
    else if (!streamed) send(200, wire.encodeResponse(next.response, isJsonObject(body) ? body : {}));
    else if (wire.encodeStream === undefined)
      send(400, wire.encodeError(400, `the emulator does not stream POST ${wire.path}`));
    else stream(wire.encodeStream(next.response, body));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script(answers) {
      queue = [...answers];
    },
    received: () => [...received],
    paths: () => [...paths],
    sentStream: () => sent,
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
