import type { ErrorDetails } from './error-details.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { describeRemedy } from './remedy.js';

/** Options accepted by {@link ForkpointError}. */
export interface ForkpointErrorOptions {
  /** The lower-level error this one explains, kept for debugging. */
  readonly cause?: unknown;
  /** What the error is about, as data; a `remedy` here completes the message in the library's terms. */
  readonly details?: ErrorDetails;
}

/**
 * The one error class forkpoint throws. The `code` is stable; the message says
 * what happened and what to do next, in the library's terms; `details` says
 * the same as data (the run, the file, the remedy), so that a front end can
 * say it in its own (the CLI names its flags).
 *
 * @example
 * ```ts
 * throw new ForkpointError('RUN_EXISTS', `a run with id ${runId} already exists in ${location}`, {
 *   details: { runId, remedy: { kind: 'choose-run-id' } },
 * });
 * ```
 */
export class ForkpointError extends Error {
  override readonly name = 'ForkpointError';
  /** What happened: the message without the remedy's words. */
  readonly problem: string;
  readonly details: ErrorDetails;

  /** `problem` says what happened; the message is the problem followed by `details.remedy` in the library's words. */
  constructor(
    readonly code: ErrorCode,
    problem: string,
    options: ForkpointErrorOptions = {},
  ) {
    const details = options.details ?? {};
    super(
      details.remedy === undefined ? problem : `${problem}${describeRemedy(details.remedy)}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.problem = problem;
    this.details = details;
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
