import type { RunStatus } from '../vocabulary/index.js';

/** The CLI's exit statuses. */
export const EXIT = {
  /** The command did what was asked and the run (or verdict) is good. */
  ok: 0,
  /** The run failed or diverged, or the verdict is negative. */
  negative: 1,
  /** Bad usage or bad input: nothing was written. */
  badInput: 2,
  /** A bug in forkpoint. */
  internal: 3,
} as const;

/** One of the CLI's exit statuses. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit status of a command that ran a run to where it stopped: `ok` when
 * it completed, and when it stopped at rest waiting for a person's approval
 * (nothing went wrong: it waits for `forkpoint approve`); `negative` when it
 * failed, diverged or was interrupted.
 */
export function exitOfRun(status: RunStatus): ExitCode {
  return status === 'completed' || status === 'awaiting-approval' ? EXIT.ok : EXIT.negative;
}
