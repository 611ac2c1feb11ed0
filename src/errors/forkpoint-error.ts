import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** Options accepted by {@link ForkpointError}. */
export interface ForkpointErrorOptions {
  /** The lower-level error this one explains, kept for debugging. */
  readonly cause?: unknown;
}

/**
 * The one error class forkpoint throws. The `code` is stable; the message says
 * what happened and what to do next.
 *
 * @example
 * ```ts
 * throw new ForkpointError('RUN_NOT_FOUND', 'no run 9b40c1d5 in checkpoints/forkpoint.db; list runs with `forkpoint runs`');
 * ```
 */
export class ForkpointError extends Error {
  override readonly name = 'ForkpointError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ForkpointErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/**
 * True when `error` is a {@link ForkpointError}, optionally with the given code.
 * Matches by shape rather than class, so errors thrown by a scenario built
 * against another copy of forkpoint are recognised too.
 */
export function isForkpointError(error: unknown, code?: ErrorCode): error is ForkpointError {
  if (!(error instanceof Error) || error.name !== 'ForkpointError') return false;
  const actual = (error as { code?: unknown }).code;
  return (
    typeof actual === 'string' &&
    (ERROR_CODES as readonly string[]).includes(actual) &&
    (code === undefined || actual === code)
  );
}
