/** Every status a reader reports, `interrupted` included. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'diverged', 'interrupted', 'awaiting-approval'] as const;

/**
 * Where a run stands. `running` is what the store holds while a process works
 * on the run; readers report a `running` run whose process is gone as
 * `interrupted`. `awaiting-approval`: the run stopped at rest before a call
 * that needs a person's approval, and `forkpoint approve` continues it.
 */
export type RunStatus = (typeof RUN_STATUSES)[number];
