/** Every status a reader reports, `interrupted` included. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'diverged', 'interrupted', 'awaiting-approval'] as const;

/**
 * Where a run stands. `running` is what the store holds while a process works
 * on the run; readers report a `running` run whose process is gone as
 * `interrupted`. `awaiting-approval`: the run stopped at rest before a call
 * that needs a person's approval, and `forkpoint approve` continues it.
 */
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Whether a run has ended, with an outcome to compare and a signature: it
 * completed, failed or diverged. One that runs, was interrupted or waits for a
 * person's approval has not.
 */
export function hasEnded(status: RunStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'diverged';
}
