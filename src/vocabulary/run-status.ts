/**
 * Where a run stands. `running` is what the store holds while a process works
 * on the run; readers report a `running` run whose process is gone as
 * `interrupted`.
 */
export type RunStatus = 'running' | 'completed' | 'failed' | 'diverged' | 'interrupted';
