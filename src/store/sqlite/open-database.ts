import Database from 'better-sqlite3';
import { ForkpointError } from '../../errors/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { withSqliteErrors } from './sqlite-errors.js';
import type { Synchronous } from './synchronous.js';

/** The page size of a new database (an existing one keeps its own). */
export const PAGE_SIZE = 8192;

/**
 * Pages of write-ahead log between automatic checkpoints (32 MiB at 8 KiB pages; SQLite's default is
 * 1000). A checkpoint costs two fsyncs and a rewrite of every page the log holds, and the pages a
 * recording dirties are mostly the same few leaves over and over: measured here, the median step commit
 * in a growing database cost 0.117 ms at 1000 pages and 0.05 ms at 4000.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

/**
 * Bytes of the database file read through a memory map instead of `pread`. SQLite reads the overflow
 * pages of a large value (a conversation segment, a long tool output) straight from the file, past its
 * page cache, once the log has been checkpointed into it: without the map every restore paid one system
 * call per overflow page, again and again (measured here: 12 per restore of the 201-step run, 15% of its
 * time). Address space only; the pages are the operating system's file cache.
 */
export const MMAP_BYTES = 256 * 1024 * 1024;

/** How to open a forkpoint database. */
export interface OpenDatabaseOptions {
  readonly path: string;
  readonly synchronous: Synchronous;
  /** Milliseconds to wait for another process's write lock before failing. */
  readonly busyTimeoutMs: number;
  readonly now: () => Date;
  /**
   * Only read: the file must exist, nothing about it changes (no journal mode, no migration, no schema),
   * and SQLite refuses any write on the connection. An outdated schema is refused rather than migrated.
   */
  readonly readOnly?: boolean;
  /** The most bytes the file may grow to; past it a write fails as on a full disk (`STORE_FULL`). */
  readonly maxBytes?: number;
}

/**
 * Opens a forkpoint database. Its schema is read first, with no lock held
 * beyond a read: a file that is not a forkpoint database, or is damaged, is
 * refused before anything about it changes. Then, for a writer, its pragmas
 * are set (creating the file when absent) and pending migrations applied in
 * one immediate transaction, which only a database that needs one takes.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  return withSqliteErrors(options.path, () => {
    const readOnly = options.readOnly === true;
    const db = new Database(options.path, { timeout: options.busyTimeoutMs, fileMustExist: readOnly });
    try {
      if (readOnly) db.pragma('query_only = ON');
      const state = readSchemaState(db, options.path);
      if (readOnly) {
        configureConnection(db, options);
        if (state.version < SCHEMA_VERSION) {
          throw new ForkpointError(
            'STORE_OUTDATED',
            `${options.path} has schema version ${state.version}; this forkpoint reads version ${SCHEMA_VERSION}. A command that writes (record, gc, ...) migrates it; this one only reads, and changes nothing`,
          );
        }
        return db;
      }
      configure(db, options);
      if (state.version < SCHEMA_VERSION) {
        // Off while migrating: a migration that rebuilds a table drops the one other tables refer to, which
        // enforcement refuses (and the pragma cannot change inside the migrations' transaction). The
        // migrations then check every reference themselves before they commit.
        db.pragma('foreign_keys = OFF');
        migrate(db, options);
      }
      db.pragma('foreign_keys = ON');
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

/** Whether a file holds a forkpoint database, and at which schema version (0 for an empty file). */
interface SchemaState {
  readonly version: number;
}

// The tables every schema version from 1 has; a database without one of them has lost it.
const CORE_TABLES = ['runs', 'steps', 'blobs'];

function readSchemaState(db: Database.Database, path: string): SchemaState {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
  if (tables.length === 0) return { version: 0 };
  if (!tables.includes('schema_migrations')) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${path} is a SQLite database but not a forkpoint one (tables: ${tables.slice(0, 5).join(', ')})`,
      { details: { path, remedy: { kind: 'open-another-store' } } },
    );
  }
  const version = (db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
  if (version > SCHEMA_VERSION) {
    throw new ForkpointError(
      'STORE_TOO_NEW',
      `${path} has schema version ${version}, newer than this forkpoint understands (${SCHEMA_VERSION}); upgrade forkpoint`,
    );
  }
  const others = tables.filter((name) => name !== 'schema_migrations');
  if (version === 0 && others.length > 0) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${path} has forkpoint's tables (${others.slice(0, 5).join(', ')}) but no record of its migrations`,
      { details: { path, remedy: { kind: 'open-another-store', restore: true } } },
    );
  }
  const missing = version === 0 ? [] : CORE_TABLES.filter((name) => !tables.includes(name));
  if (missing.length > 0) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${path} has lost its ${missing.join(', ')} table${missing.length === 1 ? '' : 's'} (schema version ${version})`,
      { details: { path, remedy: { kind: 'open-another-store', restore: true } } },
    );
  }
  return { version };
}

// Settings of this connection only: none of them writes to the file.
function configureConnection(db: Database.Database, options: OpenDatabaseOptions): void {
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  if (options.maxBytes !== undefined) {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
  }
}

function configure(db: Database.Database, options: OpenDatabaseOptions): void {
  if (db.pragma('page_count', { simple: true }) === 0) {
    // Both only take effect before the first table exists (and page_size before WAL); afterwards they are
    // silently ignored, so a database keeps the layout it was created with.
    // 8 KiB pages: a 2 KB payload blob used to leave half of a 4 KiB page empty, and a step dirtied as
    // many pages as it wrote kilobytes, so commits and WAL checkpoints cost twice what they do now.
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('auto_vacuum = INCREMENTAL');
  }
  // Switching the journal writes the file's header: only when it is not WAL already.
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  // A checkpoint rewinds the log but leaves the file at its longest; this trims it back.
  db.pragma(`journal_size_limit = ${WAL_AUTOCHECKPOINT_PAGES * PAGE_SIZE}`);
  configureConnection(db, options);
  db.pragma(`synchronous = ${options.synchronous}`);
  // ON, not FAST: FAST leaves deleted payloads readable in overflow pages.
  db.pragma('secure_delete = ON');
}

function migrate(db: Database.Database, options: OpenDatabaseOptions): void {
  db.transaction(() => {
    // Read again under the write lock: another process may have migrated (or damaged) it meanwhile.
    readSchemaState(db, options.path);
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    const newest = Math.max(0, ...applied);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      try {
        db.exec(migration.sql);
      } catch (error) {
        // A migration that does not fit the schema (a column it adds is there already): the record of
        // migrations and the schema disagree, so the file was changed outside forkpoint. Nothing is kept.
        // A full disk, a lock or a failing device is not that: it keeps its own code (STORE_FULL, STORE_BUSY, ...).
        if (
          !(error instanceof Database.SqliteError) ||
          /^SQLITE_(FULL|BUSY|LOCKED|IOERR|READONLY|NOMEM)/.test(error.code)
        )
          throw error;
        throw new ForkpointError(
          'STORE_CORRUPT',
          `${options.path} records schema version ${newest} but its tables do not match it (migration ${migration.version} failed: ${error.message}); restore it from a copy`,
          { cause: error },
        );
      }
      record.run(migration.version, migration.name, options.now().toISOString());
    }
    if (newest < SCHEMA_VERSION) {
      const broken = db.pragma('foreign_key_check') as Array<{ table: string; parent: string }>;
      const first = broken[0];
      if (first !== undefined) {
        throw new ForkpointError(
          'STORE_CORRUPT',
          `${options.path} holds ${broken.length} rows that refer to missing ones (first: a ${first.table} row without its ${first.parent} row); it was not migrated`,
        );
      }
      // A rebuilt table leaves its old pages free: give them back, or a new database starts with
      // free pages and a migrated one keeps twice its size.
      db.pragma('incremental_vacuum');
    }
  }).immediate();
}
