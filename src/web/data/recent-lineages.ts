import type { Engine, RunSummary } from '../../engine/index.js';
import { isForkpointError } from '../../errors/index.js';
import type { RunMode } from '../../vocabulary/index.js';

/** A run that others were made from, and how many of each kind. */
export interface RecentLineage {
  readonly run: RunSummary;
  readonly forks: number;
  readonly replays: number;
  readonly reexecutions: number;
}

const DERIVED: readonly RunMode[] = [
  'fork',
  'fork:prefix',
  'replay:strict',
  'replay:fidelity',
  'replay:structural',
  'reexecution',
];

/**
 * The runs the newest forks, replays and re-executions were made from, newest
 * first: where a story is, in a store whose newest runs are a batch of plain
 * recordings. Reads the newest `scan` runs of each derived mode (each an
 * indexed page) and the summary of each origin found, so it costs the same
 * whatever the store holds. An origin in another store is left out.
 */
export async function recentLineages(engine: Engine, most = 5, scan = 100): Promise<RecentLineage[]> {
  const found = new Map<string, { newest: string; forks: number; replays: number; reexecutions: number }>();
  for (const mode of DERIVED) {
    for (const run of (await engine.runPage({ mode, limit: scan })).runs) {
      const origin = run.parent?.runId ?? run.sourceRunId;
      if (origin === null) continue;
      const entry = found.get(origin) ?? { newest: run.createdAt, forks: 0, replays: 0, reexecutions: 0 };
      if (run.createdAt > entry.newest) entry.newest = run.createdAt;
      // A wrapped loop's fork by prefix replay is a fork of its recording too.
      if (mode === 'fork' || mode === 'fork:prefix') entry.forks++;
      else if (mode === 'reexecution') entry.reexecutions++;
      else entry.replays++;
      found.set(origin, entry);
    }
  }
  const newestFirst = [...found.entries()].sort(([, a], [, b]) => (a.newest < b.newest ? 1 : -1));
  const lineages: RecentLineage[] = [];
  for (const [runId, counts] of newestFirst) {
    if (lineages.length === most) break;
    try {
      const run = await engine.getRunSummary(runId);
      lineages.push({ run, forks: counts.forks, replays: counts.replays, reexecutions: counts.reexecutions });
    } catch (error) {
      if (!isForkpointError(error, 'RUN_NOT_FOUND')) throw error;
    }
  }
  return lineages;
}
