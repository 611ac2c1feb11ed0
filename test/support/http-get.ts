import { request } from 'node:http';

/** One answer of a server, read whole. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** What {@link httpRequest} may set beyond the path: the method, headers (a `Host` of its own) and a body. */
export interface HttpRequestOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Sends one request to the server at `base` (`http://127.0.0.1:PORT/`) with
 * `path` exactly as written: unlike `fetch`, nothing normalises `..` or
 * percent escapes away, and the `Host` header can be anything.
 */
export function httpRequest(base: string, path: string, options: HttpRequestOptions = {}): Promise<HttpAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: { connection: 'close', ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** A GET of `path`, expecting JSON: the status and the parsed document. */
export async function getJson(base: string, path: string): Promise<{ status: number; document: unknown }> {
  const answer = await httpRequest(base, path);
  return { status: answer.status, document: JSON.parse(answer.body) as unknown };
}
