import { STEP_KEY_SPAN } from './step-row-mapping.js';

// Callers name runs by id; their step rows are keyed by the run's integer key (see STEP_KEY_SPAN).

/** The SQL of run `runId`'s integer key (`runId` is SQL: a parameter or a column). */
export const keyOfRun = (runId: string): string => `(SELECT run_key FROM runs WHERE run_id = ${runId})`;

/** The SQL condition for the rows of run `runKey` from step `from` to step `to`: one range of rowids. */
export const stepsOf = (runKey: string, from: string, to: string): string =>
  `row_key BETWEEN ${runKey} * ${STEP_KEY_SPAN} + ${from} AND ${runKey} * ${STEP_KEY_SPAN} + ${to}`;

/** The highest step a row key can hold. */
export const LAST_STEP_KEY = STEP_KEY_SPAN - 1;

/** The SQL condition for every row of run `runKey`. */
export const allStepsOf = (runKey: string): string => stepsOf(runKey, '0', String(LAST_STEP_KEY));

/** A run's step count is its last step: stored when it finishes, counted from its rows while it runs. */
export const LAST_STEP = `COALESCE((SELECT MAX(row_key) FROM steps WHERE ${allStepsOf('runs.run_key')}) - runs.run_key * ${STEP_KEY_SPAN}, step_count)`;

/** How the store selects a run's columns: its step count is computed while it runs. */
export const RUN_COLUMNS = `runs.*, CASE WHEN status = 'running' THEN ${LAST_STEP} ELSE step_count END AS step_count`;

/** Step numbers clamped to what a row key can hold, so that a range's ends stay integers. */
export const stepRange = (from: number, to: number): { from: number; to: number } => ({
  from: Math.max(0, from),
  to: Math.min(to, LAST_STEP_KEY),
});
