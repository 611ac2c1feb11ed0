import type { ModelRequest, ModelResponse, WireAnswer } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import {
  chatCanonicalOf,
  chatResponseOf,
  neutralRequestOfAnthropicBody,
  neutralResponseOf,
  chatResponseOfSse,
  neutralResponseOfAnthropicSse,
} from '../providers/index.js';

/** A wire request read as forkpoint's canonical request. */
export interface CanonicalWireRequest {
  readonly request: ModelRequest;
  readonly streamed: boolean;
}

/** How one provider's HTTP API maps to forkpoint's request and response, for a session wrapping its SDK. */
export interface WireCodec {
  readonly format: Exclude<WireAnswer['format'], 'ai-sdk'>;
  /** The request a body asks, keyed exactly as a driven run's. */
  canonical(body: JsonObject, headers: Headers): CanonicalWireRequest;
  /** What an HTTP answer's body says, in the neutral shape. */
  response(text: string, streamed: boolean): ModelResponse;
}

const ANTHROPIC_CODEC: WireCodec = {
  format: 'anthropic',
  canonical(body, headers) {
    // A beta changes what the API does, so it is part of the request; the SDK sends them in this header.
    const beta = headers.get('anthropic-beta');
    const betas =
      beta === null
        ? []
        : beta
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== '');
    const { request, stream } = neutralRequestOfAnthropicBody(body, betas.length === 0 ? {} : { betas });
    return { request, streamed: stream };
  },
  response: (text, streamed) => (streamed ? neutralResponseOfAnthropicSse(text) : neutralResponseOf(parsed(text))),
};

const OPENAI_CHAT_CODEC: WireCodec = {
  format: 'openai-chat',
  canonical(body) {
    const { request, streamed } = chatCanonicalOf(body);
    return { request, streamed };
  },
  response: (text, streamed) => (streamed ? chatResponseOfSse(text) : chatResponseOf(parsed(text))),
};

/**
 * The codec for a request's path: the Messages API's `POST .../v1/messages`,
 * the Chat Completions API's `POST .../chat/completions`. Any other request
 * (a model list, a token count, the Responses API) is one a session cannot
 * key: refused, never passed through, so a replay cannot leak one.
 */
export function codecFor(method: string, url: string): WireCodec {
  const path = pathOf(url);
  if (method.toUpperCase() === 'POST') {
    if (path.endsWith('/v1/messages')) return ANTHROPIC_CODEC;
    if (path.endsWith('/chat/completions')) return OPENAI_CHAT_CODEC;
  }
  throw new ForkpointError(
    'PROVIDER_UNMAPPED',
    `a session cannot key ${method.toUpperCase()} ${path}: it wraps POST /v1/messages (Anthropic) and POST /chat/completions (OpenAI); it sent nothing. Make that request with a client the session does not wrap, or outside the loop`,
  );
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function parsed(text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isJsonObject(value as never))
    throw new ForkpointError(
      'PROVIDER_UNMAPPED',
      `the provider answered with a body that is not a JSON object: ${text.slice(0, 200)}`,
    );
  return value as JsonObject;
}
