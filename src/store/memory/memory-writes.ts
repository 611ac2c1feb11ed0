import { sealingKeyFor } from '../../cassette/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { PayloadBlob } from '../../payload/index.js';
import type { RunErrorRecord, RunRecord } from '../run-record.js';
import type { RunFinish } from '../run-record.js';
import { startedRunRecord } from '../run-record.js';
import type { StepRecord } from '../step-record.js';
import type { FullTierPurge, PurgeCounts } from '../store.js';
import type { SyncRunWrites } from '../sync-run-writes.js';
import type { MemoryBlobs } from './memory-blobs.js';
import type { StoredRun } from './memory-runs.js';
import { stepCountOf } from './memory-runs.js';

/** What the memory store's writes change: its runs, blobs and export keys. */
export interface MemoryState {
  readonly location: string;
  readonly runs: Map<string, StoredRun>;
  readonly blobs: MemoryBlobs;
  readonly keys: Map<string, { readonly secret: Uint8Array; readonly deleteAfter: string }>;
  /** Fresh bytes for an export key's secret. */
  readonly randomBytes: (count: number) => Uint8Array;
  /** The key of the next run made. */
  nextKey: number;
}

/**
 * The memory store's writes. Each checks everything it needs before it
 * changes anything, so that a write that fails leaves the store as it was,
 * as a rolled-back transaction does; between two awaits nothing else runs.
 */
export interface MemoryWrites extends SyncRunWrites {
  purgeRuns(purges: readonly FullTierPurge[]): PurgeCounts;
}

// A run error as a store keeps it: its code, message and step, nothing else the object carried.
const errorOf = (error: RunErrorRecord | null): RunErrorRecord | null =>
  error === null ? null : { code: error.code, message: error.message, step: error.step };

/** The writes of {@link MemoryWrites} over `state`. */
export function memoryWrites(state: MemoryState): MemoryWrites {
  const { runs, blobs, location } = state;

  const refuseTaken = (runId: string): void => {
    if (runs.has(runId))
      throw new ForkpointError('RUN_EXISTS', `a run with id ${runId} already exists in ${location}`, {
        details: { runId, path: location, remedy: { kind: 'choose-run-id' } },
      });
  };
  const refuseRows = (run: StoredRun | undefined, rows: readonly StepRecord[]): void => {
    const steps = new Set(run?.rows.map((row) => row.step));
    for (const row of rows) {
      if (steps.has(row.step))
        throw new ForkpointError('INTERNAL', `run ${run?.record.runId ?? '?'} has a row ${row.step} already`);
      steps.add(row.step);
    }
  };
  const insert = (run: RunRecord, rows: readonly StepRecord[], blobList: readonly PayloadBlob[]): StoredRun => {
    const stored: StoredRun = {
      key: state.nextKey++,
      // As a SQLite row reads back: an error is its code, message and step; only a running run has an owner.
      record: structuredClone({
        ...run,
        error: errorOf(run.error),
        owner: run.status === 'running' ? run.owner : null,
      }),
      storedStepCount: run.stepCount,
      rows: [],
      structural: undefined,
    };
    runs.set(run.runId, stored);
    // The key that will seal this run's exports is born with its payloads, so that exporting only reads.
    if (run.tier === 'full' && run.expiresAt !== null && run.purge === null) {
      const key = sealingKeyFor(run.expiresAt);
      if (!state.keys.has(key.id))
        state.keys.set(key.id, { secret: state.randomBytes(32), deleteAfter: key.deleteAfter });
    }
    blobs.insert(run.runId, blobList);
    append(stored, rows);
    return stored;
  };
  const append = (run: StoredRun, rows: readonly StepRecord[]): void => {
    for (const row of rows) {
      run.rows.push({ ...row });
      blobs.registerRow(run.record.runId, row);
    }
    run.rows.sort((a, b) => a.step - b.step);
  };
  const end = (run: StoredRun, finish: RunFinish): void => {
    run.storedStepCount = stepCountOf(run);
    run.record = {
      ...run.record,
      status: finish.status,
      outcome: structuredClone(finish.outcome),
      error: errorOf(finish.error),
      findings: structuredClone(finish.findings ?? []),
      finishedAt: finish.finishedAt,
      owner: null,
      usage: finish.usage === undefined ? null : structuredClone(finish.usage),
      signature: finish.signature === undefined ? null : structuredClone(finish.signature),
    };
  };
  // The run running under `ownerToken`, or why a write by its owner found it otherwise (see the SQLite store).
  const owned = (runId: string, ownerToken: string, what: string): StoredRun => {
    const run = runs.get(runId);
    if (run !== undefined && run.record.status === 'running' && (run.record.owner?.token ?? null) === ownerToken)
      return run;
    if (run !== undefined && (run.record.status === 'running' || run.record.resumes.length > 0)) {
      throw new ForkpointError(
        'LEASE_LOST',
        `run ${runId} was resumed by another process after this one's lease lapsed; ${what}, and this process stops writing it`,
      );
    }
    throw new ForkpointError('INTERNAL', `run ${runId} is not running; ${what}`);
  };

  return {
    createRun(run, start, blobList) {
      refuseTaken(run.runId);
      insert(startedRunRecord(run), start === null ? [] : [start], blobList);
    },
    commitStep(runId, ownerToken, step, blobList, finish) {
      const run = owned(runId, ownerToken, `step ${step.step} was not written`);
      refuseRows(run, [step]);
      blobs.insert(runId, blobList);
      append(run, [step]);
      if (finish !== undefined) end(run, finish);
    },
    finishRun(runId, ownerToken, finish) {
      end(owned(runId, ownerToken, 'it was not finished by this process'), finish);
    },
    renewLease(runId, ownerToken, leaseExpiresAt) {
      const run = runs.get(runId);
      const owner = run?.record.owner;
      if (run === undefined || run.record.status !== 'running' || owner == null || owner.token !== ownerToken)
        return false;
      run.record = { ...run.record, owner: { ...owner, leaseExpiresAt } };
      return true;
    },
    resumeRun(claim) {
      const run = runs.get(claim.runId);
      const owner = run?.record.owner ?? null;
      if (
        run === undefined ||
        run.record.status !== claim.expected.status ||
        (owner?.token ?? null) !== claim.expected.ownerToken ||
        (owner?.leaseExpiresAt ?? null) !== claim.expected.leaseExpiresAt
      ) {
        throw new ForkpointError(
          'RESUME_REFUSED',
          `run ${claim.runId} changed while it was being resumed (another process resumed it, or its owner renewed its lease); look again with \`forkpoint show ${claim.runId}\``,
        );
      }
      run.record = structuredClone({
        ...run.record,
        status: 'running',
        outcome: null,
        error: null,
        finishedAt: null,
        owner: claim.owner,
        resumes: [...run.record.resumes, claim.resume],
        // Running again: its totals are known once it ends (a resume that dies leaves them unknown, not stale).
        usage: null,
        signature: null,
      });
    },
    writeRun(run, rows, blobList, finish) {
      refuseTaken(run.runId);
      refuseRows(undefined, rows);
      end(insert(startedRunRecord(run), rows, blobList), finish);
    },
    importRun(run, rows, blobList, structural) {
      if (runs.has(run.runId))
        throw new ForkpointError('RUN_EXISTS', `a run with id ${run.runId} already exists in ${location}`, {
          details: { runId: run.runId, path: location },
        });
      refuseRows(undefined, rows);
      const stored = insert(run, rows, blobList);
      if (structural !== undefined) stored.structural = { body: structural, expiresAt: run.structuralExpiresAt };
    },
    purgeRuns(purges) {
      // Every run is checked before any is changed: a purge applies whole or not at all.
      const seen = new Set<string>();
      const purged = purges.map((change) => {
        const run = runs.get(change.runId);
        if (run === undefined || run.record.purge !== null || seen.has(change.runId))
          throw new ForkpointError('INTERNAL', `run ${change.runId} does not exist or was purged already`);
        seen.add(change.runId);
        return { run, change };
      });
      let steps = 0;
      for (const { run, change } of purged) {
        const { purge, redacted, structural } = change;
        const { record } = run;
        if (structural !== undefined) run.structural = { body: structural, expiresAt: record.structuralExpiresAt };
        steps += run.rows.length;
        // The step count a run stored stays: one still running shows it, as the SQLite store's does.
        run.rows = [];
        run.record = structuredClone({
          ...record,
          input: redacted.input,
          error: errorOf(redacted.error),
          findings: redacted.findings,
          parent: record.parent === null ? null : { ...record.parent, override: redacted.override, changes: null },
          purge,
        });
      }
      return { steps, blobs: blobs.release(purges.map(({ runId }) => runId)) };
    },
  };
}
