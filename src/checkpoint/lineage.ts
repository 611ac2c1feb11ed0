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
  // A run without a parent is its own lineage: the caller who read it already needs no further read.
  const records = known?.runId === runId && known.parent === null ? [known] : await store.readLineage(runId);
  return segmentsOfLineage(records, runId, store.location);
}

/**
 * The segments of a run's trajectory from its lineage's records (as
 * `StoreReader.readLineage` gives them: the run first, its root last), oldest
 * first. `RUN_NOT_FOUND` when there are none; `STORE_CORRUPT` when an ancestor
 * is missing or the parent chain has a cycle.
 */
export function segmentsOfLineage(records: readonly RunRecord[], runId: string, location: string): LineageSegment[] {
  if (records[0]?.runId !== runId) {
    throw new ForkpointError('RUN_NOT_FOUND', `no run ${runId} in ${location}; list runs with \`forkpoint runs\``);
  }
  const segments: LineageSegment[] = [];
  const seen = new Set<string>();
  let to = Number.MAX_SAFE_INTEGER;
  for (const [i, run] of records.entries()) {
    seen.add(run.runId);
    const from = run.parent?.atStep ?? 0;
    const contextOverride = run.parent === null ? undefined : contextOverrideOf(run.parent.override);
    // A fork of a fork at a step before the middle run's own rows uses none of them, nor its change.
    if (from <= to)
      segments.unshift({ runId: run.runId, from, to, ...(contextOverride === undefined ? {} : { contextOverride }) });
    if (run.parent === null) return segments;
    const parentId = run.parent.runId;
    if (records[i + 1]?.runId !== parentId) {
      throw new ForkpointError(
        'STORE_CORRUPT',
        seen.has(parentId)
          ? `run ${runId} has a cycle in its parent chain at ${parentId}`
          : `run ${runId} descends from run ${parentId}, which is missing from ${location}`,
      );
    }
    to = Math.min(to, from - 1);
  }
  // The loop returns at the run without a parent, or throws before it runs out of records.
  throw new ForkpointError('INTERNAL', `the lineage of run ${runId} ended without its root`);
}

/** The segment holding row `step`. */
export function segmentAt(segments: readonly LineageSegment[], step: number): LineageSegment | undefined {
  return segments.find((segment) => segment.from <= step && step <= segment.to);
}
