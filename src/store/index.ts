export type {
  NewRunRecord,
  ParentLink,
  Provenance,
  RunErrorRecord,
  RunFinish,
  RunMode,
  RunRecord,
  RunStatus,
} from './run-record.js';
export type { StepRecord, StoredMessage } from './step-record.js';
export type { Store } from './store.js';
export { sqliteStore, DEFAULT_DB_PATH, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
