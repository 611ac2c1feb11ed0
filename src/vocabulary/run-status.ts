/** Every status a reader reports, `interrupted` included. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'diverged', 'interrupted'] as const;

/**
 * Where a run stands. `running` is what the store holds while a process works
 * on the run; readers report a `running` run whose process is gone as
 * `interrupted`.
 */
export type RunStatus = (typeof RUN_STATUSES)[number];
