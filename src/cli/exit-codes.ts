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
