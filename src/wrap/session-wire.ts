import { ForkpointError } from '../errors/index.js';
import type { WireRequest } from './answer-wire.js';
import { answerWire } from './answer-wire.js';
import type { SessionCore } from './session-core.js';

/** An HTTP request as the Anthropic SDK's middleware gets it: `RequestInit` with its `url`. */
export interface MiddlewareRequest {
  readonly url: string;
  readonly method?: string | undefined;
  readonly headers?: unknown;
  readonly body?: unknown;
}

/**
 * A middleware for the Anthropic SDK's `middleware` option (0.101 and
 * later): it sees each HTTP attempt with the canonical `/v1/messages`
 * request, whatever the backend (Bedrock, Vertex, Foundry), and answers it
 * without calling `next` when the session serves it. Typed by what the SDK
 * gives it, so these declarations need no DOM or Node types: it gives back
 * a `Response`, as `next` does.
 */
export type AnthropicMiddleware = <R extends MiddlewareRequest, S>(
  request: R,
  next: (request: R) => Promise<S>,
) => Promise<S>;

/**
 * A `fetch` as an SDK takes it (`new OpenAI({ fetch })`): the session's has
 * the type of the real one it wraps.
 */
export type FetchFunction = (input: never, init?: never) => Promise<unknown>;

/** The session's Anthropic middleware. */
export function anthropicMiddleware(core: SessionCore, mayGoLive: boolean): AnthropicMiddleware {
  return async <R extends MiddlewareRequest, S>(request: R, next: (request: R) => Promise<S>): Promise<S> => {
    const wire: WireRequest = {
      url: request.url,
      method: request.method ?? 'GET',
      headers: new Headers(request.headers as ConstructorParameters<typeof Headers>[0]),
      body: bodyText(request.body, request.url),
    };
    // What `next` gives is the SDK's Response; what the session gives in its place is one too.
    const send = mayGoLive ? async () => (await next(request)) as Response : undefined;
    return (await answerWire(core, wire, send)) as S;
  };
}

/**
 * The session's `fetch`, for any SDK that takes one: the requests it keys
 * (see `codecFor`) are answered by the session; a strict replay's `fetch`
 * holds no way to call `inner` at all.
 */
export function sessionFetch<F extends FetchFunction>(core: SessionCore, mayGoLive: boolean, inner: F): F {
  // The real fetch the SDK would have called, and the session's in its place, of the same type.
  const real = inner as FetchFunction as typeof globalThis.fetch;
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    const wire: WireRequest =
      input instanceof Request
        ? {
            url: input.url,
            method: init?.method ?? input.method,
            headers: new Headers(init?.headers ?? input.headers),
            body: init?.body === undefined ? await input.clone().text() : bodyText(init.body, input.url),
          }
        : {
            url: String(input),
            method: init?.method ?? 'GET',
            headers: new Headers(init?.headers),
            body: bodyText(init?.body, String(input)),
          };
    return answerWire(core, wire, mayGoLive ? () => real(input, init) : undefined);
  };
  return wrapped as FetchFunction as F;
}

function bodyText(body: unknown, url: string): string {
  if (typeof body === 'string') return body;
  if (body === undefined || body === null) return '';
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  throw new ForkpointError(
    'PROVIDER_UNMAPPED',
    `the request to ${url} has a body a session cannot read before it is sent (${Object.prototype.toString.call(body)}); the SDKs send JSON text`,
  );
}
