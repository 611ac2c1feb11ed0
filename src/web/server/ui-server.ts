import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { ForkpointError } from '../../errors/index.js';
import type { UiServerOptions } from './ui-server-options.js';
import { DEFAULT_UI_PORT } from './ui-server-options.js';
import { assertListenHost } from './loopback.js';
import { answerRequest } from './answer-request.js';

/** A running view. */
export interface UiServer {
  /** The address to open, e.g. `http://127.0.0.1:4680/`. */
  readonly url: string;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/**
 * Starts the web view over a store: a server that only reads, on loopback
 * unless asked otherwise by name, answering pages and their JSON documents.
 * A port in use is PORT_IN_USE; an address not loopback is HOST_REFUSED.
 *
 * @example
 * ```ts
 * const server = await startUiServer({ engine, words, port: 0 });
 * console.log(`open ${server.url}`);
 * await server.close();
 * ```
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_UI_PORT;
  assertListenHost(host, options.allowRemote === true);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void answerRequest(request, response, options, options.allowRemote === true);
  });
  await listen(server, host, port);
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ForkpointError(
            'PORT_IN_USE',
            `port ${port} on ${host} is in use by another program; choose another with --port N (0 picks a free one)`,
          ),
        );
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EACCES')
        reject(
          new ForkpointError(
            'HOST_REFUSED',
            `cannot listen on ${host}:${port} (${error.code}); choose another address or port`,
          ),
        );
      else reject(error);
    });
    server.listen(port, host, () => {
      resolve();
    });
  });
}
