import { ForkpointError } from '../errors/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import type { ContextOverride } from '../fork/index.js';
import { contextOverrideOf } from '../fork/index.js';

/** A run's own rows from `from` to `to` (inclusive) within another run's trajectory. */
export interface LineageSegment {
  readonly runId: string;
  readonly from: number;
  readonly to: number;
  /**
   * A prompt or model change the run made before its first own step: it
   * belongs to the state before step `from`, which is otherwise its parent's.
   */
  readonly contextOverride?: ContextOverride;
}

/**
 * Which run holds each row of a run's trajectory, oldest first. A recorded run
 * is one segment; a fork at step N holds rows N onwards and inherits rows
 * 0..N-1 from its parent's lineage, so no row is ever copied.
 *
 * @param known the record of `runId`, when the caller has read it already
 */
export async function lineageOf(store: StoreReader, runId: string, known?: RunRecord): Promise<LineageSegment[]> {
  const segments: LineageSegment[] = [];
  let current = runId;
  let to = Number.MAX_SAFE_INTEGER;
  const seen = new Set<string>();
  for (;;) {
    if (seen.has(current))
      throw new ForkpointError('STORE_CORRUPT', `run ${runId} has a cycle in its parent chain at ${current}`);
    seen.add(current);
    // The run the caller already read need not be read again.
    const run = known?.runId === current ? known : await store.getRun(current);
    if (run === undefined) {
      throw new ForkpointError(
        current === runId ? 'RUN_NOT_FOUND' : 'STORE_CORRUPT',
        current === runId
          ? `no run ${runId} in ${store.location}; list runs with \`forkpoint runs\``
          : `run ${runId} descends from run ${current}, which is missing from ${store.location}`,
      );
    }
    const from = run.parent?.atStep ?? 0;
    const contextOverride = run.parent === null ? undefined : contextOverrideOf(run.parent.override);
    // A fork of a fork at a step before the middle run's own rows uses none of them, nor its change.
    if (from <= to)
      segments.unshift({ runId: current, from, to, ...(contextOverride === undefined ? {} : { contextOverride }) });
    if (run.parent === null) return segments;
    to = Math.min(to, from - 1);
    current = run.parent.runId;
  }
}

/** The segment holding row `step`. */
export function segmentAt(segments: readonly LineageSegment[], step: number): LineageSegment | undefined {
  return segments.find((segment) => segment.from <= step && step <= segment.to);
}
