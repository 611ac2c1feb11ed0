import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatedAnswer, ProviderEmulator } from '../../../src/testing/index.js';
import type { JsonValue } from '../../../src/json/index.js';

/** How one provider's HTTP API writes an answer: the path it serves, a response body, an error body. */
export interface WireFormat {
  /** The request path it answers, e.g. `/v1/messages`. */
  readonly path: string;
  readonly encodeResponse: (answer: Extract<EmulatedAnswer, { kind: 'response' }>['response']) => JsonValue;
  readonly encodeError: (status: number, message: string) => JsonValue;
  /** Headers of a 429 that make the SDK retry at once. */
  readonly retryNow: Readonly<Record<string, string>>;
}

/**
 * A provider's HTTP API on 127.0.0.1 (port 0), answering what it is scripted
 * to in order and keeping every request body: the shared part of the
 * emulators the provider tests start and stop. It never reaches the network.
 */
export async function startHttpEmulator(wire: WireFormat): Promise<ProviderEmulator> {
  let queue: EmulatedAnswer[] = [];
  const received: JsonValue[] = [];
  const server = createServer((request, response) => {
    void answer(request, response);
  });
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    received.push(text === '' ? null : (JSON.parse(text) as JsonValue));
    const send = (status: number, body: JsonValue, headers: Readonly<Record<string, string>> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
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
    else send(200, wire.encodeResponse(next.response));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script(answers) {
      queue = [...answers];
    },
    received: () => received,
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
