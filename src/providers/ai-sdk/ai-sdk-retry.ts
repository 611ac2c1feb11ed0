import { setTimeout as sleep } from 'node:timers/promises';

// `ai`'s own backoff (util/retry-with-exponential-backoff.ts, over provider-utils'): 2 s, doubled each time.
const INITIAL_DELAY_MS = 2000;
const BACKOFF_FACTOR = 2;
// A wait the provider asks for is taken if it is under a minute (or under the backoff), as `ai` takes it.
const LONGEST_ASKED_WAIT_MS = 60_000;

/**
 * Calls `attempt`, and again on an error the provider marks retryable
 * (`APICallError.isRetryable`: a 408, 409, 429 or 5xx, a dropped connection),
 * up to `maxRetries` more times: the retry `generateText` wraps `doGenerate`
 * in, which a caller of `doGenerate` itself does not get. The wait is the
 * provider's `retry-after-ms` or `retry-after` header when it is reasonable,
 * the backoff otherwise. The last error is thrown as it is, so its status
 * still decides what it means for the run.
 */
export async function withRetries<T>(attempt: () => PromiseLike<T>, maxRetries: number): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= maxRetries || !isRetryable(error)) throw error;
      await sleep(delayOf(error, INITIAL_DELAY_MS * BACKOFF_FACTOR ** retry));
    }
  }
}

const isRetryable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { readonly isRetryable?: unknown }).isRetryable === true;

function delayOf(error: unknown, backoff: number): number {
  const headers = (error as { readonly responseHeaders?: unknown }).responseHeaders;
  if (typeof headers !== 'object' || headers === null) return backoff;
  const { 'retry-after-ms': afterMs, 'retry-after': after } = headers as { readonly [name: string]: unknown };
  let asked: number | undefined;
  if (typeof afterMs === 'string' && !Number.isNaN(parseFloat(afterMs))) asked = parseFloat(afterMs);
  else if (typeof after === 'string') {
    const seconds = parseFloat(after);
    asked = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return asked !== undefined && !Number.isNaN(asked) && asked >= 0 && (asked < LONGEST_ASKED_WAIT_MS || asked < backoff)
    ? asked
    : backoff;
}
