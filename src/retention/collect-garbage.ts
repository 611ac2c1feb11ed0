import type { Cassette } from '../cassette/index.js';
import { serializeCassette } from '../cassette/index.js';
import { isForkpointError } from '../errors/index.js';
import type { FullTierPurge, RunRecord, Store } from '../store/index.js';
import { pacedWrite } from '../store/index.js';
import { hasExpired, structuralCassetteOf } from '../tiers/index.js';
import { cassetteOfRun } from '../read/index.js';
import { readStepViews } from '../read/index.js';
import { redactedSummary } from '../read/index.js';

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
 * How much of a purge `gc` writes in one transaction: at most this many runs,
 * and at most {@link GC_BATCH_STEPS} step rows (a run with more is purged
 * alone). A recorder that starts meanwhile waits for the write lock for at
 * most one batch, which must stay far below its 5 s busy timeout and the
 * 100 ms the issue set: measured here (`npm run bench:scale`), a batch of 64
 * 9-step runs held it 7 ms at the median and 32 ms at worst in a database of
 * 100k runs. After each, gc leaves the lock free for as long as it held it
 * (`pacedWrite`).
 */
export const GC_BATCH_RUNS = 64;
/** See {@link GC_BATCH_RUNS}. */
export const GC_BATCH_STEPS = 4096;
// Structural records dropped per transaction: a row each, small.
const DROP_BATCH = 512;

/** How `gc` sizes its write transactions (tests make them small). */
export interface GcOptions {
  readonly batchRuns?: number;
  readonly batchSteps?: number;
}

/**
 * Enforces retention in storage: removes the full tier of every run past its
 * expiry (its step rows and the blobs only it used), keeps a structural
 * record and the run summary in its place, removes structural records past
 * theirs, and gives the freed pages back to the file system.
 *
 * A run whose rows another run reads (a fork's parent) expires no later than
 * that reader does, by construction; a reader of a run that is removed now is
 * removed with it, so no run is left pointing at missing rows. The purge goes
 * in short transactions (see {@link GC_BATCH_RUNS}), readers before the runs
 * they read, so that each run's structural record is made while every row it
 * needs is still there, and a process recording meanwhile is never held up
 * for long. Only the runs that expired are read, never the whole store.
 */
export async function collectGarbage(
  store: Store,
  now: Date,
  isWorkedOn: (run: RunRecord) => boolean,
  options: GcOptions = {},
): Promise<GcReport> {
  const at = now.toISOString();
  const expiring = await expiringRuns(store, at, isWorkedOn);
  const kept = new Set<string>();
  let blobs = 0;
  for (const batch of batchesOf(
    purgeOrder(expiring),
    options.batchRuns ?? GC_BATCH_RUNS,
    options.batchSteps ?? GC_BATCH_STEPS,
  )) {
    const purges: FullTierPurge[] = [];
    for (const run of batch) {
      const purge: FullTierPurge = {
        runId: run.runId,
        purge: { at, reason: 'expired' },
        redacted: redactedSummary(run),
      };
      // A structural record made earlier stays as it is.
      if ((await store.readStructural(run.runId)) !== undefined) {
        kept.add(run.runId);
        purges.push(purge);
        continue;
      }
      const body = await structuralRecord(store, run, now);
      if (body !== null) kept.add(run.runId);
      purges.push(body === null ? purge : { ...purge, structural: body });
    }
    blobs += (await pacedWrite(() => store.purgeRuns(purges))).blobs;
  }

  const removed = await store.expiredStructural(at);
  for (let i = 0; i < removed.length; i += DROP_BATCH)
    await pacedWrite(() => store.dropStructural(removed.slice(i, i + DROP_BATCH)));
  const keys = await store.dropExportKeys(at);
  await store.compact();
  return {
    now: at,
    purged: expiring.map((run) => ({
      runId: run.runId,
      expiredAt: run.expiresAt ?? at,
      steps: run.stepCount,
      structuralUntil: kept.has(run.runId) ? run.structuralExpiresAt : null,
    })),
    structuralRemoved: removed,
    blobs,
    keys,
  };
}

// Runs still holding rows whose expiry has passed, and every run that reads their rows, oldest first.
async function expiringRuns(store: Store, at: string, isWorkedOn: (run: RunRecord) => boolean): Promise<RunRecord[]> {
  const found = new Map<string, RunRecord>();
  // A run a live process is still writing is left to finish; an interrupted one is collected.
  const queue = (await store.expiredRuns(at)).filter((run) => !isWorkedOn(run));
  // An array's iterator reads its length at each step, so the children pushed below are visited too.
  for (const run of queue) {
    if (found.has(run.runId)) continue;
    found.set(run.runId, run);
    for (const child of await store.listChildren(run.runId)) {
      if (child.parent?.runId === run.runId && child.purge === null && !isWorkedOn(child)) queue.push(child);
    }
  }
  return [...found.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

// Every run after the runs that read its rows: a fork's structural record is made from its parent's rows.
function purgeOrder(runs: readonly RunRecord[]): RunRecord[] {
  const byId = new Map(runs.map((run) => [run.runId, run]));
  const depthOf = (run: RunRecord): number => {
    let depth = 0;
    for (let parent = run.parent; parent !== null; parent = byId.get(parent.runId)?.parent ?? null) {
      if (!byId.has(parent.runId)) break;
      depth++;
    }
    return depth;
  };
  return runs
    .map((run, order) => ({ run, order, depth: depthOf(run) }))
    .sort((a, b) => b.depth - a.depth || a.order - b.order)
    .map(({ run }) => run);
}

// Consecutive batches of at most `maxRuns` runs and `maxSteps` step rows (a longer run goes alone).
function batchesOf(runs: readonly RunRecord[], maxRuns: number, maxSteps: number): RunRecord[][] {
  const batches: RunRecord[][] = [];
  let batch: RunRecord[] = [];
  let steps = 0;
  for (const run of runs) {
    const rows = run.stepCount + 1;
    if (batch.length > 0 && (batch.length >= maxRuns || steps + rows > maxSteps)) {
      batches.push(batch);
      batch = [];
      steps = 0;
    }
    batch.push(run);
    steps += rows;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

// A structural replay's rows are shapes already, and a structural record past its own expiry is not kept.
async function structuralRecord(store: Store, run: RunRecord, now: Date): Promise<string | null> {
  if (hasExpired(run.structuralExpiresAt, now)) return null;
  if (run.parent !== null && (await store.getRun(run.parent.runId))?.purge !== null) return null;
  let full: Cassette;
  try {
    full = await store.read(async (reader) =>
      cassetteOfRun(reader, run, await readStepViews(reader, run.runId, { known: run })),
    );
  } catch (error) {
    // Its payloads were shredded before it was purged (its key's day ended while a process still wrote
    // it): there is nothing left to take the shape of.
    if (isForkpointError(error, 'CASSETTE_EXPIRED')) return null;
    throw error;
  }
  return serializeCassette(structuralCassetteOf(full, run.structuralExpiresAt));
}
