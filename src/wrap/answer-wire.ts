import type { ModelResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import { parseJsonInput } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import { ProviderAttemptFailed } from './provider-attempt.js';
import type { SessionCore } from './session-core.js';
import { codecFor } from './wire-codecs.js';

/** One HTTP request of a wrapped SDK, as its middleware or `fetch` got it. */
export interface WireRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  /** The body's text; the SDKs send JSON. */
  readonly body: string;
}

/**
 * Answers an SDK's HTTP request through the session: its body read as the
 * canonical request, positioned and answered by the mode, and the answer
 * handed back as the HTTP response the SDK parses, byte for byte what was
 * recorded (a JSON body, or the event stream of a streamed call).
 *
 * `send` makes the request for real; it is absent in a strict replay, which
 * therefore has no way to reach the network. A live answer is read whole
 * before the SDK sees it: its step is committed first, and the stream the SDK
 * then reads is the one stored. An error status from the provider is handed
 * to the SDK as it came, and is no step: its retry takes the same position.
 */
export async function answerWire(
  core: SessionCore,
  request: WireRequest,
  send: (() => Promise<Response>) | undefined,
): Promise<Response> {
  const codec = codecFor(request.method, request.url);
  const body = parseJsonInput(request.body, 'the request body', 'PROVIDER_UNMAPPED');
  if (!isJsonObject(body))
    throw new ForkpointError('PROVIDER_UNMAPPED', `the request to ${request.url} does not have a JSON object body`);
  const { request: canonical, streamed } = codec.canonical(body, request.headers);
  let liveHeaders: Headers | undefined;
  const live =
    send === undefined
      ? undefined
      : async (): Promise<ModelResponse> => {
          let answer: Response;
          try {
            answer = await send();
          } catch (error) {
            // A connection that failed is the SDK's to retry: the same call, at the same position.
            throw new ProviderAttemptFailed(error, 0);
          }
          if (!answer.ok) throw new ProviderAttemptFailed(answer, answer.status);
          const text = await answer.text();
          liveHeaders = answer.headers;
          return { ...codec.response(text, streamed), wire: { format: codec.format, streamed, body: text } };
        };
  try {
    const { response } = await core.model({ request: canonical, streamed, format: codec.format, live });
    const text = typeof response.wire?.body === 'string' ? response.wire.body : '';
    const headers = new Headers(liveHeaders);
    // The body is whole text now: a length or an encoding of the original would misdescribe it.
    headers.delete('content-length');
    headers.delete('content-encoding');
    headers.set('content-type', streamed ? 'text/event-stream' : 'application/json');
    return new Response(text, { status: 200, headers });
  } catch (error) {
    if (!(error instanceof ProviderAttemptFailed)) throw error;
    if (error.answer instanceof Response) return error.answer;
    throw error.answer;
  }
}
