import Database from 'better-sqlite3';
import { ForkpointError } from '../../errors/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { withSqliteErrors } from './sqlite-errors.js';

/** `NORMAL` survives a killed process; `FULL` also survives power loss, at about 7x the commit cost. */
export type Synchronous = 'NORMAL' | 'FULL';

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
}

/**
 * Opens (creating when absent) a forkpoint database, sets its pragmas and
 * applies pending migrations in one immediate transaction.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  return withSqliteErrors(options.path, () => {
    const db = new Database(options.path, { timeout: options.busyTimeoutMs });
    try {
      configure(db, options);
      // Off while migrating: a migration that rebuilds a table drops the one other tables refer to, which
      // enforcement refuses (and the pragma cannot change inside the migrations' transaction). The
      // migrations then check every reference themselves before they commit.
      db.pragma('foreign_keys = OFF');
      migrate(db, options);
      db.pragma('foreign_keys = ON');
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
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
  db.pragma('journal_mode = WAL');
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  // A checkpoint rewinds the log but leaves the file at its longest; this trims it back.
  db.pragma(`journal_size_limit = ${WAL_AUTOCHECKPOINT_PAGES * PAGE_SIZE}`);
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  db.pragma(`synchronous = ${options.synchronous}`);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  // ON, not FAST: FAST leaves deleted payloads readable in overflow pages.
  db.pragma('secure_delete = ON');
}

function migrate(db: Database.Database, options: OpenDatabaseOptions): void {
  db.transaction(() => {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    if (tables.length > 0 && !tables.includes('schema_migrations')) {
      throw new ForkpointError(
        'STORE_CORRUPT',
        `${options.path} is a SQLite database but not a forkpoint one (tables: ${tables.slice(0, 5).join(', ')}); point --db at another file`,
      );
    }
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    const newest = Math.max(0, ...applied);
    if (newest > SCHEMA_VERSION) {
      throw new ForkpointError(
        'STORE_TOO_NEW',
        `${options.path} has schema version ${newest}, newer than this forkpoint understands (${SCHEMA_VERSION}); upgrade forkpoint`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, options.now().toISOString());
    }
    if (newest < SCHEMA_VERSION) {
      const broken = db.pragma('foreign_key_check') as Array<{ table: string; parent: string }>;
      if (broken.length > 0) {
        throw new ForkpointError(
          'STORE_CORRUPT',
          `${options.path} holds ${broken.length} rows that refer to missing ones (first: a ${broken[0]!.table} row without its ${broken[0]!.parent} row); it was not migrated`,
        );
      }
      // A rebuilt table leaves its old pages free: give them back, or a new database starts with
      // free pages and a migrated one keeps twice its size.
      db.pragma('incremental_vacuum');
    }
  }).immediate();
}
