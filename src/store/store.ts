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
import type { RestoreRequest, RestoreRows } from './restore-request.js';
import type { SignedRun, SignedRunQuery } from './signed-run.js';
import type { RunMode } from '../vocabulary/index.js';
import type { RunStatus, ShapedFinding } from '../vocabulary/index.js';

/**
 * What a store answers without changing anything: runs, their steps and
 * checkpoints, payload blobs, structural records, settings and export keys.
 * Every answer is a promise, so that a store over a network (PostgreSQL) can
 * implement it; a SQLite store answers from a synchronous driver, already
 * resolved. Records come back as fresh objects the caller may keep.
 */
export interface StoreReader {
  /** Where the data lives, for messages (a file path, `:memory:`, a URL). */
  readonly location: string;

  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Every run, oldest first (by `createdAt`, then the order they were made). */
  listRuns(): Promise<RunRecord[]>;
  /**
   * One page of runs, newest first (by `createdAt`, then the order they were
   * made), that match every filter given: what `forkpoint runs` lists without
   * reading every run. A `before` cursor that names no run gives an empty page.
   */
  queryRuns(query: RunQuery): Promise<RunRecord[]>;
  /**
   * The record of `runId`, then its parent's, its parent's parent's, and so on
   * to a run without a parent: the lineage a restore needs, in one read (one
   * query in PostgreSQL). Stops, without an error, at an ancestor that is
   * missing or already listed, for the caller to name; empty when `runId` is
   * not in the store.
   */
  readLineage(runId: string): Promise<RunRecord[]>;
  /**
   * Everything restoring a checkpoint reads once its lineage is known, in one
   * consistent state: the checkpoint chain, the message logs, and the body of
   * every blob they reach. A store over a network answers it in one round
   * trip, so that a restore costs the same at step 5 as at step 5,000.
   */
  readRestore(request: RestoreRequest): Promise<RestoreRows>;
  /**
   * The ended runs with a failure signature that match `query`, oldest first
   * (by `createdAt`, then the order they were made): what `similar` and
   * `classes` count. Reads no payload column; a run ended before forkpoint
   * made signatures has none and is not listed.
   */
  listSignedRuns(query: SignedRunQuery): Promise<SignedRun[]>;
  /** Runs that fork from `runId`, or replay or re-execute it, oldest first. */
  listChildren(runId: string): Promise<RunRecord[]>;
  /**
   * The runs whose full tier `gc` must remove at `now` (ISO): those still
   * holding it past their expiry, and forks still holding rows whose parent's
   * full tier is gone (left by a gc that ran while they were written). Oldest
   * first. Found without reading every run.
   */
  expiredRuns(now: string): Promise<RunRecord[]>;
  /** The ids of runs whose structural cassette is stored and expired by `now` (ISO), soonest expired first. */
  expiredStructural(now: string): Promise<string[]>;
  /** The run's own rows from `from` to `to` inclusive, in order. */
  readSteps(runId: string, from?: number, to?: number): Promise<StepRecord[]>;
  /**
   * The rows needed to rebuild checkpoint `step` of the run's own rows: the
   * nearest full checkpoint at or before it, and every row after that up to it.
   * Empty when the run has no row `step`.
   */
  readCheckpointChain(runId: string, step: number): Promise<CheckpointRow[]>;
  /**
   * The messages the run's own rows from `fromStep` to `upToStep` (inclusive)
   * appended, in order. A range that starts at the run's first row comes in
   * conversation segments plus the rows after the last; any other range
   * comes row by row.
   */
  readMessages(runId: string, fromStep: number, upToStep: number): Promise<MessageLog>;
  /** Blob bodies by digest; unknown digests are absent from the result. */
  readBlobs(digests: readonly string[]): Promise<Map<string, string>>;
  /** A run's structural cassette as stored; undefined when it has none. */
  readStructural(runId: string): Promise<string | undefined>;
  /** The store's id and the retention periods runs made in it get. */
  settings(): Promise<StoreSettings>;
  /**
   * The key that seals full-tier cassettes of one expiry day (see
   * `sealingKeyFor`); undefined once deleted, or in a store that never had it.
   * A store makes the key when it creates the first full-tier run expiring
   * that day, so that exporting only reads.
   */
  exportKey(keyId: string): Promise<SealingKey | undefined>;
  /**
   * Runs `work`, which only reads, against one consistent state of the store:
   * a write committed meanwhile (here or by another process) is not seen
   * until it returns. Callers that read several times to answer one question
   * (restoring a checkpoint reads the run, its chain, its messages and their
   * blobs) read through the reader `work` is given and get a coherent answer;
   * a SQLite store takes its read lock once instead of once per statement, a
   * PostgreSQL one opens one repeatable-read transaction. On that reader,
   * `read` simply runs the work inside the same state. `work` must not write:
   * a write of this store waits for the reads open on it.
   */
  read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T>;
}

/**
 * Where runs, their steps and checkpoints, and payload blobs live: the port
 * the engine depends on, in the domain's terms. A row's payload columns hold
 * the payload encoding (small JSON whose large subtrees are `$blob` / `$tree`
 * references to blobs stored once by digest), which every store keeps as
 * text, byte for byte. Implementations: `memoryStore()`, `sqliteStore()`,
 * `postgresStore()`; each passes `describeStoreConformance` from `forkpoint/testing`.
 */
export interface Store extends StoreReader {
  /**
   * Creates a run with its first row in one transaction: row 0 for a new run,
   * none for a fork (whose rows start at its fork step and come with its
   * steps). Fails with `RUN_EXISTS` (and writes nothing) when the id is taken.
   */
  createRun(run: NewRunRecord, start: StepRecord | null, blobs: readonly PayloadBlob[]): Promise<void>;
  /**
   * Commits one step: its row, its new blobs and the run's step count, all or
   * nothing. With `finish`, the step is the run's last and the run ends in the
   * same transaction: no reader ever sees its final step on a run still running.
   * `ownerToken` must be the running run's owner's: a process whose run was
   * resumed elsewhere gets `LEASE_LOST` and writes nothing. Once the promise
   * resolves the step is durable: a process killed after it keeps it.
   */
  commitStep(
    runId: string,
    ownerToken: string,
    step: StepRecord,
    blobs: readonly PayloadBlob[],
    finish?: RunFinish,
  ): Promise<void>;
  /** Records how a run ended, if its owner is still `ownerToken` (`LEASE_LOST` otherwise). */
  finishRun(runId: string, ownerToken: string, finish: RunFinish): Promise<void>;
  /**
   * Extends the running run's owner lease to `leaseExpiresAt`; false (and
   * nothing written) when the run is no longer running under `ownerToken`.
   */
  renewLease(runId: string, ownerToken: string, leaseExpiresAt: number): Promise<boolean>;
  /**
   * Takes over a run to resume it, in one transaction: it is `running` again
   * under the new owner, without its ending, with the resume (and the
   * side-effect policy it runs under) appended to its history; the run's own
   * `sideEffects` stays the first attempt's. Only if the run is still exactly as the caller read it (status,
   * owner token and lease), so that two processes resuming at once, or an
   * owner renewing its lease meanwhile, make all but one fail with
   * `RESUME_REFUSED`.
   */
  resumeRun(claim: ResumeClaim): Promise<void>;
  /**
   * Writes a whole run (its rows, blobs, and its ending) in one transaction:
   * for runs that are cheap to redo, such as replays. `RUN_EXISTS` writes nothing.
   */
  writeRun(
    run: NewRunRecord,
    rows: readonly StepRecord[],
    blobs: readonly PayloadBlob[],
    finish: RunFinish,
  ): Promise<void>;

  /**
   * Writes a run copied from another store, exactly as it is there, in one
   * transaction: its record as given (status and ending, the owner of a
   * `running` run, resumes, tier and expiries, purge, token totals, step
   * count), its rows, the blobs they reach (a blob stored already is kept
   * as it is), and its structural cassette, kept until the record's
   * structural expiry. A full tier that is not purged gets this store's own
   * export key for its expiry day, as `createRun` makes one: a store seals
   * with its own keys only. `RUN_EXISTS` (and nothing written) when the id
   * is taken. What `forkpoint copy` writes through.
   */
  importRun(
    run: RunRecord,
    rows: readonly StepRecord[],
    blobs: readonly PayloadBlob[],
    structural?: string,
  ): Promise<void>;

  /** Stores (or replaces) a run's structural cassette, serialised. */
  saveStructural(runId: string, body: string): Promise<void>;
  /**
   * Removes the full tier of runs in one transaction: their step rows, every
   * blob no remaining row refers to, and the payloads of their summaries,
   * which are replaced by the redacted ones given (what a fork's override
   * changed holds payload too, and goes). Status, outcome and
   * counts stay. Deleted bytes are zeroed (`secure_delete`); `compact`
   * returns the pages to the file system. Costs what the purged runs hold,
   * not what the store holds, so callers may purge one run at a time, or in
   * small batches to keep each transaction short. All or nothing: a run that
   * does not exist, or was purged already, fails the whole purge.
   */
  purgeRuns(purges: readonly FullTierPurge[]): Promise<PurgeCounts>;
  /** Removes runs' structural cassettes; returns how many there were. */
  dropStructural(runIds: readonly string[]): Promise<number>;
  /** Changes the retention periods; runs made from now on get them, runs made before keep their expiries. */
  updateSettings(change: Partial<RetentionPeriods>): Promise<StoreSettings>;
  /** Deletes the export keys due for deletion at `now` (ISO), zeroing their bytes; returns how many. */
  dropExportKeys(now: string): Promise<number>;
  /**
   * Gives freed space back (the file system's pages, a truncated write-ahead
   * log), so that removed bytes leave the disk. A long compaction goes in
   * short paced steps, so that a writer waiting meanwhile gets in.
   */
  compact(): Promise<void>;
  /** Lets go of the store; nothing may be called on it afterwards. */
  close(): Promise<void>;
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
    readonly status: 'running' | 'failed' | 'awaiting-approval';
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
  /** Only runs created strictly before this ISO timestamp. */
  readonly until?: string;
  readonly mode?: RunMode;
  /** The stored status: `interrupted` is never stored (readers derive it from a `running` run's lease). */
  readonly status?: Exclude<RunStatus, 'interrupted'>;
  readonly build?: string;
  /** Only runs whose stored scenario is exactly this (see `RunRecord.scenario`). */
  readonly scenario?: string;
}

/** What a purge removed. */
export interface PurgeCounts {
  readonly steps: number;
  readonly blobs: number;
}
