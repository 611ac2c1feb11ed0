import type { SealingKey } from '../cassette/index.js';
import type { PayloadBlob } from '../payload/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import type {
  NewRunRecord,
  RunErrorRecord,
  RunFinish,
  RunOwner,
  RunPurge,
  RunRecord,
  RunResume,
} from './run-record.js';
import type { CheckpointRow, MessageLog, StepRecord } from './step-record.js';
import type { RunMode } from '../vocabulary/index.js';
import type { RunStatus, ShapedFinding } from '../vocabulary/index.js';

/**
 * Where runs, their steps and checkpoints, and payload blobs live. Synchronous
 * on purpose: better-sqlite3 is, and a step is one short transaction. Every
 * implementation runs the conformance suite in `forkpoint/testing`.
 */
export interface Store {
  /** Where the data lives, for messages (a file path, `:memory:`, a URL). */
  readonly location: string;

  /**
   * Creates a run with its first row in one transaction: row 0 for a new run,
   * none for a fork (whose rows start at its fork step and come with its
   * steps). Fails with `RUN_EXISTS` (and writes nothing) when the id is taken.
   */
  createRun(run: NewRunRecord, start: StepRecord | null, blobs: readonly PayloadBlob[]): void;
  /** Runs that fork from `runId`, or replay or re-execute it, oldest first. */
  listChildren(runId: string): RunRecord[];
  /**
   * Commits one step: its row, its new blobs and the run's step count, all or
   * nothing. With `finish`, the step is the run's last and the run ends in the
   * same transaction: no reader ever sees its final step on a run still running.
   * `ownerToken` must be the running run's owner's: a process whose run was
   * resumed elsewhere gets `LEASE_LOST` and writes nothing.
   */
  commitStep(
    runId: string,
    ownerToken: string,
    step: StepRecord,
    blobs: readonly PayloadBlob[],
    finish?: RunFinish,
  ): void;
  /** Records how a run ended, if its owner is still `ownerToken` (`LEASE_LOST` otherwise). */
  finishRun(runId: string, ownerToken: string, finish: RunFinish): void;
  /**
   * Extends the running run's owner lease to `leaseExpiresAt`; false (and
   * nothing written) when the run is no longer running under `ownerToken`.
   */
  renewLease(runId: string, ownerToken: string, leaseExpiresAt: number): boolean;
  /**
   * Takes over a run to resume it, in one transaction: it is `running` again
   * under the new owner, without its ending, with the resume (and the
   * side-effect policy it runs under) appended to its history; the run's own
   * `sideEffects` stays the first attempt's. Only if the run is still exactly as the caller read it (status,
   * owner token and lease), so that two processes resuming at once, or an
   * owner renewing its lease meanwhile, make all but one fail with
   * `RESUME_REFUSED`.
   */
  resumeRun(claim: ResumeClaim): void;
  /**
   * Writes a whole run (its rows, blobs, and its ending) in one transaction:
   * for runs that are cheap to redo, such as replays. `RUN_EXISTS` writes nothing.
   */
  writeRun(run: NewRunRecord, rows: readonly StepRecord[], blobs: readonly PayloadBlob[], finish: RunFinish): void;

  getRun(runId: string): RunRecord | undefined;
  /** Every run, oldest first. */
  listRuns(): RunRecord[];
  /**
   * One page of runs, newest first (by `createdAt`, then the order they were
   * made), that match every filter given: what `forkpoint runs` lists without
   * reading every run. A `before` cursor that names no run gives an empty page.
   */
  queryRuns(query: RunQuery): RunRecord[];
  /**
   * The runs whose full tier `gc` must remove at `now` (ISO): those still
   * holding it past their expiry, and forks still holding rows whose parent's
   * full tier is gone (left by a gc that ran while they were written). Oldest
   * first. Found without reading every run.
   */
  expiredRuns(now: string): RunRecord[];
  /** The ids of runs whose structural cassette is stored and expired by `now` (ISO). */
  expiredStructural(now: string): string[];
  /** The run's own rows from `from` to `to` inclusive, in order. */
  readSteps(runId: string, from?: number, to?: number): StepRecord[];
  /**
   * The rows needed to rebuild checkpoint `step` of the run's own rows: the
   * nearest full checkpoint at or before it, and every row after that up to it.
   * Empty when the run has no row `step`.
   */
  readCheckpointChain(runId: string, step: number): CheckpointRow[];
  /**
   * The messages the run's own rows from `fromStep` to `upToStep` (inclusive)
   * appended, in order. A range that starts at the run's first row comes in
   * conversation segments plus the rows after the last; any other range
   * comes row by row.
   */
  readMessages(runId: string, fromStep: number, upToStep: number): MessageLog;
  /** Blob bodies by digest; unknown digests are absent from the result. */
  readBlobs(digests: readonly string[]): Map<string, string>;
  /**
   * Runs `work`, which only reads, against one consistent state of the store:
   * a write committed elsewhere while it runs is not seen until it returns.
   * Callers that read several times to answer one question (restoring a
   * checkpoint reads the run, its chain, its messages and their blobs) get a
   * coherent answer, and a SQLite store takes its read lock once instead of
   * once per statement. Within a transaction already open, `work` simply runs.
   */
  read<T>(work: () => T): T;

  /** Stores (or replaces) a run's structural cassette, serialised. */
  saveStructural(runId: string, body: string): void;
  /** A run's structural cassette as stored; undefined when it has none. */
  readStructural(runId: string): string | undefined;
  /**
   * Removes the full tier of runs in one transaction: their step rows, every
   * blob no remaining row refers to, and the payloads of their summaries,
   * which are replaced by the redacted ones given (what a fork's override
   * changed holds payload too, and goes). Status, outcome and
   * counts stay. Deleted bytes are zeroed (`secure_delete`); `compact`
   * returns the pages to the file system. Costs what the purged runs hold,
   * not what the store holds, so callers may purge one run at a time, or in
   * small batches to keep each transaction short.
   */
  purgeRuns(purges: readonly FullTierPurge[]): PurgeCounts;
  /** Removes runs' structural cassettes; returns how many there were. */
  dropStructural(runIds: readonly string[]): number;
  /** The store's id and the retention periods runs made in it get. */
  settings(): StoreSettings;
  /** Changes the retention periods; runs made from now on get them, runs made before keep their expiries. */
  updateSettings(change: Partial<RetentionPeriods>): StoreSettings;
  /**
   * The key that seals full-tier cassettes of one expiry day (see
   * `sealingKeyFor`); undefined once deleted, or in a store that never had it.
   * A store makes the key when it creates the first full-tier run expiring
   * that day, so that exporting only reads.
   */
  exportKey(keyId: string): SealingKey | undefined;
  /** Deletes the export keys due for deletion at `now` (ISO), zeroing their bytes; returns how many. */
  dropExportKeys(now: string): number;
  /** Gives freed pages back to the file system and truncates the write-ahead log, so removed bytes leave the disk. */
  compact(): void;
  close(): void;
}

/** How long a store keeps each tier of the runs made in it. */
export interface RetentionPeriods {
  /** Hours a full tier is kept (default 72). */
  readonly fullRetentionHours: number;
  /** Days a structural record is kept (default 90). */
  readonly structuralRetentionDays: number;
}

/** A store's own settings. */
export interface StoreSettings extends RetentionPeriods {
  /** A random id, named by the cassettes the store seals. */
  readonly storeId: string;
}

/** What `resumeRun` needs: the run as the caller read it, and who resumes it. */
export interface ResumeClaim {
  readonly runId: string;
  readonly expected: {
    readonly status: 'running' | 'failed';
    readonly ownerToken: string | null;
    readonly leaseExpiresAt: number | null;
  };
  readonly owner: RunOwner;
  readonly resume: RunResume;
}

/** One run whose full tier is removed, and what its summary keeps of its payloads. */
export interface FullTierPurge {
  readonly runId: string;
  readonly purge: RunPurge;
  /** A structural cassette stored (or replaced) for the run in the same transaction, before its rows go. */
  readonly structural?: string;
  readonly redacted: {
    readonly input: JsonObject;
    readonly error: RunErrorRecord | null;
    readonly override: JsonValue | null;
    readonly findings: readonly ShapedFinding[];
  };
}

/** A page of runs (see `Store.queryRuns`); every filter is optional. */
export interface RunQuery {
  /** At most this many runs. */
  readonly limit: number;
  /** Only runs listed after this one (by id): the cursor of the next page. */
  readonly before?: string;
  /** Only runs created at or after this ISO timestamp. */
  readonly since?: string;
  readonly mode?: RunMode;
  /** The stored status: `interrupted` is never stored (readers derive it from a `running` run's lease). */
  readonly status?: Exclude<RunStatus, 'interrupted'>;
  readonly build?: string;
}

/** What a purge removed. */
export interface PurgeCounts {
  readonly steps: number;
  readonly blobs: number;
}
