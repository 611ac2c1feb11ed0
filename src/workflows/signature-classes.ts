import { sameJson } from '../json/index.js';
import type { Engine } from '../engine/index.js';
import type { PriceTable } from '../pricing/index.js';
import { runCostOf } from '../pricing/index.js';
import type { FailureSignature } from '../signature/index.js';
import type { SignedRun, SignedRunQuery } from '../store/index.js';

/** How many runs of a group there are by build, by day (`YYYY-MM-DD`) and by how they ended. */
export interface GroupCounts {
  readonly runs: number;
  readonly byBuild: Readonly<Record<string, number>>;
  readonly byDay: Readonly<Record<string, number>>;
  readonly byStatus: Readonly<Record<string, number>>;
}

/** A fix checked against a class: a strict replay or re-execution of one of its runs by another build that completed. */
export interface VerifiedFix {
  readonly build: string;
  readonly mode: string;
  /** The run of the class it was checked against, and the run that checked it. */
  readonly runId: string;
  readonly checkRunId: string;
}

/** How many times each key occurs. */
export const counted = (keys: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
};

/** The counts of a group of signed runs. */
export function groupCounts(runs: readonly SignedRun[]): GroupCounts {
  return {
    runs: runs.length,
    byBuild: counted(runs.map((run) => run.build)),
    byDay: counted(runs.map((run) => run.createdAt.slice(0, 10))),
    byStatus: counted(runs.map((run) => run.status)),
  };
}

/** The recorded runs among signed runs: the runs a class counts (replays, forks and re-executions are second lives). */
export const recordedRuns = (runs: readonly SignedRun[]): SignedRun[] => runs.filter((run) => run.mode === 'record');

/** A run that could check a fix, and where it stands among the period's runs (oldest first). */
export interface FixCheck {
  readonly run: SignedRun;
  readonly order: number;
}

/**
 * The runs that could check a fix, by the run they were made from: the
 * `replay:strict` and `reexecution` runs among `signed` (oldest first, made
 * at or after the period's start) that completed, as `verify` stores them.
 */
export function fixChecksBySource(signed: readonly SignedRun[]): Map<string, FixCheck[]> {
  const checks = new Map<string, FixCheck[]>();
  signed.forEach((run, order) => {
    if (run.sourceRunId === null || run.status !== 'completed') return;
    if (run.mode !== 'replay:strict' && run.mode !== 'reexecution') return;
    checks.set(run.sourceRunId, [...(checks.get(run.sourceRunId) ?? []), { run, order }]);
  });
  return checks;
}

/** The oldest fix checked against a class: a check (see {@link fixChecksBySource}) of one of its runs by another build. */
export function verifiedFixOf(
  members: readonly SignedRun[],
  checksBySource: ReadonlyMap<string, readonly FixCheck[]>,
): VerifiedFix | null {
  let oldest: { readonly fix: VerifiedFix; readonly order: number } | undefined;
  for (const member of members) {
    for (const { run, order } of checksBySource.get(member.runId) ?? []) {
      if (run.build === member.build || (oldest !== undefined && order >= oldest.order)) continue;
      oldest = { fix: { build: run.build, mode: run.mode, runId: member.runId, checkRunId: run.runId }, order };
    }
  }
  return oldest?.fix ?? null;
}

/** What the live calls of a group of runs cost, in USD (null when a model of theirs has no price). */
export async function paidUsdOf(engine: Engine, runs: readonly SignedRun[]): Promise<number | null> {
  const tables = new Map<string | null, PriceTable>();
  let usd = 0;
  for (const run of runs) {
    let table = tables.get(run.scenario);
    if (table === undefined) {
      table = await engine.prices(run.scenario);
      tables.set(run.scenario, table);
    }
    const paid = runCostOf(run.usage ?? [], table, 'not-read').paid.usd;
    if (paid === null) return null;
    usd += paid;
  }
  return Math.round(usd * 1e6) / 1e6;
}

/** The number of leading trajectory parts two signatures share. */
export function sharedPrefix(a: FailureSignature, b: FailureSignature): number {
  const same = (i: number): boolean => sameJson(a.trajectory[i] ?? null, b.trajectory[i] ?? null);
  let shared = 0;
  while (shared < a.trajectory.length && shared < b.trajectory.length && same(shared)) shared += 1;
  return shared;
}

/** The store query of a period given as optional bounds. */
export function periodOf(query: { readonly since?: string; readonly until?: string }): SignedRunQuery {
  return {
    ...(query.since === undefined ? {} : { since: query.since }),
    ...(query.until === undefined ? {} : { until: query.until }),
  };
}
