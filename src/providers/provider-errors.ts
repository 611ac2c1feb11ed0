import { ForkpointError } from '../errors/index.js';

/**
 * The HTTP status of an SDK's error, read structurally: the Anthropic and
 * OpenAI SDKs put it on the error as `status`, the AI SDK's `APICallError` as
 * `statusCode` (a network error has neither).
 */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { readonly status?: unknown; readonly statusCode?: unknown };
  if (typeof status === 'number') return status;
  return typeof statusCode === 'number' ? statusCode : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A request the provider will never accept as it is: retrying it is pointless. 408 (timeout), 409 (conflict) and
// 429 (rate limit) are the 4xx a provider asks to retry.
const RETRYABLE_4XX: ReadonlySet<number> = new Set([408, 409, 429]);

/**
 * What an SDK's error means for a run, one rule for every adapter: a 4xx the
 * provider would refuse again is `PROVIDER_REJECTED`, with the provider's own
 * message (the run fails at that step); anything else (a network error, a
 * timeout, a 429, a 5xx) is `PROVIDER_FAILED` (the run stops there, every
 * step before it kept, and a resume continues it).
 */
export function providerErrorOf(provider: string, error: unknown): ForkpointError {
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500 && !RETRYABLE_4XX.has(status)) {
    return new ForkpointError(
      'PROVIDER_REJECTED',
      `${provider} rejected the request (${status}): ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  const what = status === undefined ? 'could not be reached' : `failed (${status})`;
  return new ForkpointError('PROVIDER_FAILED', `${provider} ${what}: ${messageOf(error)}`, { cause: error });
}

/**
 * A response an adapter cannot map to the neutral shape without losing what it
 * says: `PROVIDER_UNMAPPED`, naming the field, with the value verbatim in the
 * error's `details.data`, so nothing is guessed and nothing is dropped.
 */
export function unmappedResponse(provider: string, field: string, value: unknown, why: string): ForkpointError {
  return new ForkpointError(
    'PROVIDER_UNMAPPED',
    `${provider} answered with ${field} that forkpoint cannot map: ${why}`,
    {
      details: { field, data: value },
    },
  );
}

/** A client given to an adapter that is not a client of its SDK: `USAGE`, naming what was missing. */
export function notAClient(adapter: string, expected: string): ForkpointError {
  return new ForkpointError('USAGE', `${adapter} takes ${expected}; the object given has no such method`);
}
