export type {
  NewRunRecord,
  ParentLink,
  PurgeReason,
  RunErrorRecord,
  RunFinish,
  RunPurge,
  RunOwner,
  RunRecord,
  RunResume,
} from './run-record.js';
export { startedRunRecord } from './run-record.js';
export type { SignedRun, SignedRunQuery } from './signed-run.js';
export type { CheckpointRow, MessageLog, StepRecord } from './step-record.js';
export type {
  FullTierPurge,
  PurgeCounts,
  ResumeClaim,
  RetentionPeriods,
  RunQuery,
  Store,
  StoreReader,
  StoreSettings,
} from './store.js';
export { sqliteStore, DEFAULT_DB_PATH, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
export type { Synchronous } from './sqlite/synchronous.js';
export { memoryStore, type MemoryStoreOptions } from './memory/memory-store.js';
export { DEFAULT_POSTGRES_SCHEMA, postgresStore, type PostgresStoreOptions } from './postgres/postgres-store.js';
export type {
  PostgresClient,
  PostgresPool,
  PostgresPoolOptions,
  PostgresQuery,
  PostgresResult,
} from './postgres/postgres-pool.js';
export { lineageByRuns, restoreByParts } from './restore-reads.js';
export type { MessageRange, RestoreRequest, RestoreRows } from './restore-request.js';
export { MAX_PAUSE_MS, pacedWrite } from './paced-write.js';
export { openStore, openTarget, storeExists, type OpenStoreOptions } from './open-store.js';
export {
  isSameStore,
  parseStoreUrl,
  redactStoreUrl,
  storeLabel,
  type PostgresTarget,
  type SqliteTarget,
  type StoreTarget,
} from './store-url.js';
export { copyRuns, type CopiedRun, type CopyReport, type CopyTarget } from './copy/copy-runs.js';
export type { CopyPlanOptions } from './copy/copy-plan.js';
