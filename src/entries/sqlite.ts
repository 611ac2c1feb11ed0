/**
 * `forkpoint/sqlite`: the embedded SQLite store (better-sqlite3) and what is
 * its own: where it puts its file by default, and how durable a commit is.
 * The root exports `sqliteStore` too; this subpath adds the rest.
 *
 * @example
 * ```ts
 * import { DEFAULT_DB_PATH, sqliteStore } from 'forkpoint/sqlite';
 * const store = sqliteStore({ path: DEFAULT_DB_PATH, synchronous: 'FULL' });
 * ```
 */
export { DEFAULT_DB_PATH, sqliteStore, type SqliteStoreOptions, type Synchronous } from '../store/index.js';
