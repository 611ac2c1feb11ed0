import { serializeCassette } from '../cassette/index.js';
import type { FullTierPurge, RunRecord, Store } from '../store/index.js';
import { hasExpired, structuralCassetteOf } from '../tiers/index.js';
import { cassetteOfRun } from './cassette-of-run.js';
import { readStepViews } from './read-run.js';
import { redactedSummary } from './redact-summary.js';

/** One run whose full tier `gc` removed. */
export interface CollectedRun {
  readonly runId: string;
  /** When its full tier expired. */
  readonly expiredAt: string;
  /** Step rows removed. */
  readonly steps: number;
  /** Whether a structural record was kept in its place (and until when). */
  readonly structuralUntil: string | null;
}

/** What `gc` removed. */
export interface GcReport {
  readonly now: string;
  readonly purged: readonly CollectedRun[];
  /** Runs whose structural record expired and was removed. */
  readonly structuralRemoved: readonly string[];
  /** Payload blobs no remaining row referred to. */
  readonly blobs: number;
  /** Export keys deleted with their day: every cassette they sealed can no longer be read. */
  readonly keys: number;
}

/**
 * Enforces retention in storage: removes the full tier of every run past its
 * expiry (its step rows and the blobs only it used), keeps a structural
 * record and the run summary in its place, removes structural records past
 * theirs, and gives the freed pages back to the file system.
 *
 * A run whose rows another run reads (a fork's parent) expires no later than
 * that reader does, by construction; a reader of a run that is removed now is
 * removed with it, so no run is left pointing at missing rows.
 */
export function collectGarbage(store: Store, now: Date, isWorkedOn: (run: RunRecord) => boolean): GcReport {
  const runs = store.listRuns();
  const expiring = expiringRuns(runs, now, isWorkedOn);
  // Every structural record is made before any row goes: a fork's shape needs its parent's rows.
  const kept = new Set<string>();
  for (const run of expiring) {
    // A structural record made earlier stays as it is.
    if (store.readStructural(run.runId) !== undefined) {
      kept.add(run.runId);
      continue;
    }
    const body = structuralRecord(store, run, now);
    if (body === null) continue;
    store.saveStructural(run.runId, body);
    kept.add(run.runId);
  }
  const purges: FullTierPurge[] = expiring.map((run) => ({ runId: run.runId, purge: { at: now.toISOString(), reason: 'expired' }, redacted: redactedSummary(run) }));
  const stepsBefore = new Map(expiring.map((run) => [run.runId, run.stepCount]));
  const counts = purges.length === 0 ? { steps: 0, blobs: 0 } : store.purgeRuns(purges);

  const structuralExpired = runs.filter((run) => hasExpired(run.structuralExpiresAt, now)).map((run) => run.runId);
  const removed = structuralExpired.filter((runId) => store.readStructural(runId) !== undefined);
  store.dropStructural(removed);
  const keys = store.dropExportKeys(now.toISOString());
  store.compact();
  return {
    now: now.toISOString(),
    purged: expiring.map((run) => ({
      runId: run.runId,
      expiredAt: run.expiresAt ?? now.toISOString(),
      steps: stepsBefore.get(run.runId) ?? 0,
      structuralUntil: kept.has(run.runId) ? run.structuralExpiresAt : null,
    })),
    structuralRemoved: removed,
    blobs: counts.blobs,
    keys,
  };
}

// Runs still holding rows whose expiry has passed, and every run that reads their rows.
function expiringRuns(runs: readonly RunRecord[], now: Date, isWorkedOn: (run: RunRecord) => boolean): RunRecord[] {
  const gone = new Set(runs.filter((run) => run.purge !== null).map((run) => run.runId));
  const expiring: RunRecord[] = [];
  // Oldest first, so a parent is decided before its forks.
  for (const run of runs) {
    // A run a live process is still writing is left to finish; an interrupted one is collected.
    if (run.purge !== null || isWorkedOn(run)) continue;
    const readsGoneRows = run.parent !== null && gone.has(run.parent.runId);
    if (hasExpired(run.expiresAt, now) || readsGoneRows) {
      expiring.push(run);
      gone.add(run.runId);
    }
  }
  return expiring;
}

// A structural replay's rows are shapes already, and a structural record past its own expiry is not kept.
function structuralRecord(store: Store, run: RunRecord, now: Date): string | null {
  if (hasExpired(run.structuralExpiresAt, now)) return null;
  if (run.parent !== null && store.getRun(run.parent.runId)?.purge !== null) return null;
  const full = cassetteOfRun(store, run, readStepViews(store, run.runId));
  return serializeCassette(structuralCassetteOf(full, run.structuralExpiresAt));
}
