import type { ModelResponse } from '../conversation/index.js';
import type { AiSdkLanguageModel } from '../providers/index.js';
import {
  canonicalOfAiSdkCall,
  neutralResultOf,
  neutralResultOfStreamParts,
  revivedGenerateResult,
  revivedStreamParts,
  storedGenerateResult,
  storedStreamParts,
} from '../providers/index.js';
import { ProviderAttemptFailed } from './provider-attempt.js';
import type { SessionCore } from './session-core.js';

/** What `wrapGenerate` and `wrapStream` are given, as the AI SDK (v5 to v7) gives it. */
export interface AiSdkWrapOptions<G = unknown, S = unknown> {
  readonly doGenerate: () => PromiseLike<G>;
  readonly doStream: () => PromiseLike<S>;
  readonly params: unknown;
  readonly model: AiSdkLanguageModel;
}

/**
 * A `wrapLanguageModel` middleware (`specificationVersion: 'v3'`, which `ai`
 * 6 requires and 7 accepts), typed structurally so that forkpoint imports
 * nothing of the SDK: each method gives what the SDK's own `doGenerate` or
 * `doStream` gives.
 */
export interface AiSdkMiddleware {
  readonly specificationVersion: 'v3';
  wrapGenerate<G, S>(options: AiSdkWrapOptions<G, S>): Promise<G>;
  wrapStream<G, S>(options: AiSdkWrapOptions<G, S>): Promise<S>;
}

interface StreamResult {
  readonly stream: ReadableStream<unknown>;
}

/**
 * The session's AI SDK middleware: each `doGenerate` or `doStream` of the
 * wrapped model is a model step, keyed by the canonical request of its call
 * options. A generate answer is stored as the result `doGenerate` gave (in
 * JSON, its dates revived on replay); a stream as its parts, read whole
 * before the loop sees the first (the step is committed first), and replayed
 * as the same parts. An error from the provider goes to the SDK as it came
 * (`generateText` retries it), and is no step.
 */
export function aiSdkMiddleware(core: SessionCore, mayGoLive: boolean): AiSdkMiddleware {
  return {
    specificationVersion: 'v3',
    async wrapGenerate<G, S>({ doGenerate, params, model }: AiSdkWrapOptions<G, S>): Promise<G> {
      const { request } = canonicalOfAiSdkCall(params, model);
      const live = mayGoLive
        ? async (): Promise<ModelResponse> => {
            const result = await attempt(doGenerate);
            return {
              ...neutralResultOf(model, result),
              wire: { format: 'ai-sdk', streamed: false, body: storedGenerateResult(result) },
            };
          }
        : undefined;
      const { response } = await answered(core, { request, streamed: false, format: 'ai-sdk', live });
      // The result as stored, live or not (without the request sent and the raw HTTP answer, which a session
      // does not store): a recording and its replay give the SDK the same.
      return revivedGenerateResult(response.wire?.body ?? null) as G;
    },
    async wrapStream<G, S>({ doStream, params, model }: AiSdkWrapOptions<G, S>): Promise<S> {
      const { request } = canonicalOfAiSdkCall(params, model);
      const live = mayGoLive
        ? async (): Promise<ModelResponse> => {
            const { stream } = (await attempt(doStream)) as StreamResult;
            const parts = await readAll(stream);
            return {
              ...neutralResultOfStreamParts(model, parts),
              wire: { format: 'ai-sdk', streamed: true, body: storedStreamParts(parts) },
            };
          }
        : undefined;
      const { response } = await answered(core, { request, streamed: true, format: 'ai-sdk', live });
      // The parts as stored, live or not, and nothing else of `doStream`'s result (the request it sent, the
      // answer's headers, which a session does not store): a recording and its replay give the SDK the same.
      return { stream: streamOf(revivedStreamParts(response.wire?.body ?? null)) } as S;
    },
  };
}

// An error of the provider's call is the SDK's to handle (it retries, or throws its own error).
async function attempt(call: () => PromiseLike<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    throw new ProviderAttemptFailed(error, statusOf(error));
  }
}

async function answered(core: SessionCore, ask: Parameters<SessionCore['model']>[0]) {
  try {
    return await core.model(ask);
  } catch (error) {
    if (error instanceof ProviderAttemptFailed) throw error.answer;
    throw error;
  }
}

async function readAll(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const parts: unknown[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

function streamOf(parts: readonly unknown[]): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

function statusOf(error: unknown): number {
  const status =
    typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === 'number' ? status : 0;
}
