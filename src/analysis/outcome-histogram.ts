import type { JsonObject } from '../json/index.js';
import type { RunErrorRecord } from '../store/index.js';
import type { RunStatus } from '../vocabulary/index.js';

/** The part of a run an outcome histogram counts. */
export interface CountedRun {
  readonly status: RunStatus;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
}

/**
 * Counts runs by how they ended: `completed: approve`, `failed: VALIDATION_FAILED`.
 * Repeats turn one coin toss into a distribution, so a reliable change can be
 * told from a lucky one.
 */
export function outcomeHistogram(runs: readonly CountedRun[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const run of runs) {
    const key = outcomeKey(run);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The bucket a run falls in. */
export function outcomeKey(run: CountedRun): string {
  if (run.status === 'completed') {
    const decision = run.outcome?.decision;
    return typeof decision === 'string' ? `completed: ${decision}` : 'completed';
  }
  return run.error === null ? run.status : `${run.status}: ${run.error.code}`;
}
