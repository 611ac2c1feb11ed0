import Database from 'better-sqlite3';
import { ForkpointError } from '../../errors/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { withSqliteErrors } from './sqlite-errors.js';

/** `NORMAL` survives a killed process; `FULL` also survives power loss, at about 7x the commit cost. */
export type Synchronous = 'NORMAL' | 'FULL';

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
      migrate(db, options);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

function configure(db: Database.Database, options: OpenDatabaseOptions): void {
  // auto_vacuum only takes effect before the first table exists; afterwards it is silently ignored.
  if (db.pragma('page_count', { simple: true }) === 0) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous}`);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
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
  }).immediate();
}
