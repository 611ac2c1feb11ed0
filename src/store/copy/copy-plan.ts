import { ForkpointError } from '../../errors/index.js';
import type { RunOwner, RunRecord } from '../run-record.js';
import type { StoreReader } from '../store.js';

/** What to copy, and how to tell a run still being written. */
export interface CopyPlanOptions {
  /** These runs and their ancestors (default: every run). */
  readonly runIds?: readonly string[];
  /** Whether a `running` run's owner is still at work: such a run is refused, an interrupted one is copied. */
  readonly isOwnerAlive: (owner: RunOwner) => boolean;
}

/**
 * The runs a copy writes, each after the runs it was made from: a fork after
 * its parent, whose rows its checkpoints build on, and a replay or
 * re-execution after its source when the store has it. Otherwise in the
 * store's order (oldest first, then the order they were made), which the
 * target then keeps. With `runIds`, those runs and every ancestor; an
 * unknown one is `RUN_NOT_FOUND`. A run whose recorder is still at work is
 * refused (`COPY_REFUSED`): its next steps would be written to the source
 * only. Nothing is written either way.
 */
export async function planCopy(source: StoreReader, options: CopyPlanOptions): Promise<RunRecord[]> {
  const all = await source.listRuns();
  const byId = new Map(all.map((run) => [run.runId, run]));
  const wanted = options.runIds === undefined ? all : options.runIds.map((runId) => known(byId, runId, source));
  const ordered: RunRecord[] = [];
  const placed = new Set<string>();
  const place = (run: RunRecord): void => {
    if (placed.has(run.runId)) return;
    placed.add(run.runId);
    if (run.parent !== null) place(parentOf(byId, run, source));
    const origin = run.sourceRunId === null ? undefined : byId.get(run.sourceRunId);
    if (origin !== undefined) place(origin);
    ordered.push(run);
  };
  // In the store's order, so that runs made at the same instant keep their order in the target.
  const chosen = new Set(wanted.map((run) => run.runId));
  for (const run of all) if (chosen.has(run.runId)) place(run);
  const live = ordered.filter(
    (run) => run.status === 'running' && run.owner !== null && options.isOwnerAlive(run.owner),
  );
  if (live.length > 0) throw stillRunning(live, source);
  return ordered;
}

function known(byId: ReadonlyMap<string, RunRecord>, runId: string, source: StoreReader): RunRecord {
  const run = byId.get(runId);
  if (run === undefined)
    throw new ForkpointError('RUN_NOT_FOUND', `no run ${runId} in ${source.location}; nothing was copied`, {
      details: { runId },
    });
  return run;
}

// A fork's checkpoints build on its parent's rows: without them the copy could not be restored.
function parentOf(byId: ReadonlyMap<string, RunRecord>, run: RunRecord, source: StoreReader): RunRecord {
  const parentId = run.parent?.runId ?? '';
  const parent = byId.get(parentId);
  if (parent === undefined)
    throw new ForkpointError(
      'STORE_CORRUPT',
      `run ${run.runId} forks from run ${parentId}, which ${source.location} does not hold; nothing was copied`,
      { details: { runId: run.runId } },
    );
  return parent;
}

function stillRunning(live: readonly RunRecord[], source: StoreReader): ForkpointError {
  const [first] = live;
  const owner = first?.owner;
  const where = owner == null ? '' : ` (process ${owner.pid}${owner.host === null ? '' : ` on ${owner.host}`})`;
  const more = live.length > 1 ? ` and ${live.length - 1} more` : '';
  return new ForkpointError(
    'COPY_REFUSED',
    `run ${first?.runId ?? '?'}${more} in ${source.location} is still being recorded${where}: its next steps would go to the source only. Copy once it has ended (an interrupted run is copied as interrupted, to be resumed in the target), or name the runs to copy; nothing was copied`,
    { details: { runId: first?.runId ?? '' } },
  );
}
