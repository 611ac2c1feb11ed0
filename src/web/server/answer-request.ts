import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForkpointError, isForkpointError } from '../../errors/index.js';
import { SERVER_POLICY } from '../assets/index.js';
import type { Html } from '../html/html.js';
import type { PageError } from '../pages/error-page.js';
import { errorPage } from '../pages/error-page.js';
import { pageDocument } from '../pages/layout.js';
import { SERVER_LINKS } from '../pages/page-links.js';
import { ASSET_FILES } from './asset-files.js';
import { httpStatusOf } from './http-status.js';
import { isLoopbackHostHeader } from './loopback.js';
import type { Route, RouteAnswer } from './route-answer.js';
import { ROUTES } from './routes.js';
import type { UiServerOptions } from './ui-server-options.js';

const HEADERS = {
  'Content-Security-Policy': SERVER_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
} as const;

/**
 * Answers one request: only GET and HEAD, only for a Host that names
 * loopback (unless the server was opened to others by name), from the route
 * table or the asset files, and never with a stack trace: an error is a page
 * or a JSON document with its code.
 */
export async function answerRequest(
  request: IncomingMessage,
  response: ServerResponse,
  options: UiServerOptions,
  allowRemote: boolean,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const wantsJson = url.pathname.startsWith('/api/');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    const message = `the view only reads: ${request.method ?? 'this method'} is not answered, only GET and HEAD`;
    sendFailure(response, request, wantsJson, { status: 405, code: 'USAGE', message });
    return;
  }
  try {
    if (!allowRemote && !isLoopbackHostHeader(request.headers.host))
      throw new ForkpointError(
        'HOST_REFUSED',
        `the view answers requests for loopback hosts only, not for "${request.headers.host ?? ''}"`,
      );
    const asset = ASSET_FILES.get(url.pathname);
    if (asset !== undefined) {
      send(response, request, 200, asset.type, asset.body);
      return;
    }
    const answer = await route(url, options);
    if (answer.kind === 'redirect') {
      response.writeHead(302, { ...HEADERS, Location: answer.location }).end();
      return;
    }
    if (answer.kind === 'json') {
      sendJson(response, request, 200, answer.document);
      return;
    }
    sendPage(response, request, 200, pageDocument(answer.parts, SERVER_LINKS));
    return;
  } catch (error) {
    sendFailure(response, request, wantsJson, failureOf(error, options));
  }
}

function sendFailure(response: ServerResponse, request: IncomingMessage, wantsJson: boolean, failure: PageError): void {
  if (wantsJson) {
    sendJson(response, request, failure.status, { error: { code: failure.code, message: failure.message } });
    return;
  }
  const title = failure.status === 404 ? 'not found' : 'error';
  sendPage(response, request, failure.status, pageDocument({ title, body: errorPage(failure) }, SERVER_LINKS));
}

async function route(url: URL, options: UiServerOptions): Promise<RouteAnswer> {
  for (const candidate of ROUTES) {
    const match = candidate.path.exec(url.pathname);
    if (match !== null)
      return await answerWith(candidate, match.slice(1).map(decodedSegment), url.searchParams, options);
  }
  throw new ForkpointError(
    'PAGE_NOT_FOUND',
    `there is no page ${url.pathname}; the pages are listed at /runs and in the README`,
  );
}

function answerWith(
  candidate: Route,
  params: string[],
  query: URLSearchParams,
  options: UiServerOptions,
): Promise<RouteAnswer> {
  return candidate.answer(params, query, { engine: options.engine, words: options.words });
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ForkpointError('USAGE', `the path holds a malformed escape: ${segment}`);
  }
}

function failureOf(error: unknown, options: UiServerOptions): PageError {
  if (isForkpointError(error) && error.code !== 'INTERNAL')
    return {
      status: httpStatusOf(error.code),
      code: error.code,
      message: options.describeError?.(error) ?? error.message,
    };
  options.onInternalError?.(error);
  return {
    status: 500,
    code: 'INTERNAL',
    message: 'forkpoint failed to draw this page: a bug; the terminal running `forkpoint ui` has the details',
  };
}

function send(response: ServerResponse, request: IncomingMessage, status: number, type: string, body: string): void {
  response.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function sendPage(response: ServerResponse, request: IncomingMessage, status: number, page: Html): void {
  send(response, request, status, 'text/html; charset=utf-8', page.markup);
}

function sendJson(response: ServerResponse, request: IncomingMessage, status: number, document: unknown): void {
  send(response, request, status, 'application/json; charset=utf-8', `${JSON.stringify(document)}\n`);
}
