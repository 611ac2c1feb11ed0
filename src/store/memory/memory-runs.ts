import type { RunRecord } from '../run-record.js';
import type { StepRecord } from '../step-record.js';
import type { RunQuery } from '../store.js';

/**
 * One run as the memory store holds it: its record (the owner kept only
 * while it runs), the step count it stored when it ended, its rows in step
 * order, and its structural cassette with the expiry it was stored with.
 */
export interface StoredRun {
  /** The order runs were made in, which orders runs made at the same instant. */
  readonly key: number;
  record: RunRecord;
  storedStepCount: number;
  rows: StepRecord[];
  structural: { readonly body: string; readonly expiresAt: string | null } | undefined;
}

/** The run's step count as readers see it: its last row while it runs, what it stored once it ended. */
export function stepCountOf(run: StoredRun): number {
  if (run.record.status !== 'running') return run.storedStepCount;
  return run.rows[run.rows.length - 1]?.step ?? run.storedStepCount;
}

/** A fresh copy of the run's record, as a reader gets it. */
export function recordOf(run: StoredRun): RunRecord {
  return structuredClone({ ...run.record, stepCount: stepCountOf(run) });
}

/** Oldest first: by creation time, then the order the runs were made. */
export const byCreation = (a: StoredRun, b: StoredRun): number =>
  a.record.createdAt < b.record.createdAt ? -1 : a.record.createdAt > b.record.createdAt ? 1 : a.key - b.key;

/** The runs of a page (see `Store.queryRuns`), newest first; an unknown cursor gives none. */
export function pageOf(runs: ReadonlyMap<string, StoredRun>, query: RunQuery): StoredRun[] {
  const cursor = query.before === undefined ? undefined : runs.get(query.before);
  if (query.before !== undefined && cursor === undefined) return [];
  const matches = (run: StoredRun): boolean => {
    const { record } = run;
    if (cursor !== undefined && byCreation(run, cursor) >= 0) return false;
    if (query.since !== undefined && record.createdAt < query.since) return false;
    if (query.until !== undefined && record.createdAt >= query.until) return false;
    if (query.mode !== undefined && record.mode !== query.mode) return false;
    if (query.status !== undefined && record.status !== query.status) return false;
    if (query.scenario !== undefined && record.scenario !== query.scenario) return false;
    return query.build === undefined || record.build === query.build;
  };
  return [...runs.values()]
    .filter(matches)
    .sort((a, b) => byCreation(b, a))
    .slice(0, query.limit);
}

/**
 * The runs whose full tier gc must remove at `now`: past their expiry, or
 * forks whose parent's full tier is gone. Oldest first.
 */
export function expiredOf(runs: ReadonlyMap<string, StoredRun>, now: string): StoredRun[] {
  return [...runs.values()]
    .filter(({ record }) => {
      if (record.purge !== null) return false;
      if (record.expiresAt !== null && record.expiresAt <= now) return true;
      return record.parent !== null && runs.get(record.parent.runId)?.record.purge != null;
    })
    .sort(byCreation);
}

/** The ids of runs whose structural cassette has expired by `now`, soonest expired first. */
export function expiredStructuralOf(runs: ReadonlyMap<string, StoredRun>, now: string): string[] {
  const expiring: Array<{ run: StoredRun; expiresAt: string }> = [];
  for (const run of runs.values()) {
    const expiresAt = run.structural?.expiresAt ?? null;
    if (expiresAt !== null && expiresAt <= now) expiring.push({ run, expiresAt });
  }
  return expiring
    .sort((a, b) => (a.expiresAt < b.expiresAt ? -1 : a.expiresAt > b.expiresAt ? 1 : a.run.key - b.run.key))
    .map(({ run }) => run.record.runId);
}
