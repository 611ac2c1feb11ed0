import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { IExportTraceServiceRequest } from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';

/** One request an OTLP/HTTP receiver got: its path, content type, raw body and the body decoded. */
export interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: string;
  readonly request: IExportTraceServiceRequest;
}

/** A receiver on 127.0.0.1 and what it got. */
export interface OtlpReceiver {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP traces receiver on 127.0.0.1, port 0. It decodes the OTLP/JSON
 * body as the protocol defines it (JSON, typed by the OpenTelemetry
 * transformer's own `IExportTraceServiceRequest`): the OpenTelemetry JS
 * packages ship a serializer for requests and a decoder for responses only,
 * so no forkpoint code reads what was sent. `silent`: it accepts requests and
 * never answers.
 */
export async function startOtlpReceiver(options: { silent?: boolean } = {}): Promise<OtlpReceiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (options.silent === true) return;
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body,
        request: JSON.parse(body) as IExportTraceServiceRequest,
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A port on 127.0.0.1 that nobody listens on: one the system handed out and that was closed again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}
