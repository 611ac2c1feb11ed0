import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Whether a database file holds nothing yet: zero bytes, or a SQLite file
 * without a single table (as `sqlite3 new.db` leaves it). Read without
 * changing the file: a WAL file needs its shared memory created to be read,
 * so a file in WAL mode is opened as usual, and only read.
 */
export function isEmptyFile(path: string): boolean {
  // A missing file is not empty: opening it fails, and says so.
  if (!existsSync(path)) return false;
  if (statSync(path).size === 0) return true;
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    return (db.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number) === 0;
  } finally {
    db.close();
  }
}
