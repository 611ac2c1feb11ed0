import Database from 'better-sqlite3';
import { ForkpointError } from '../../errors/index.js';

const CORRUPT = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE']);
const UNREADABLE = new Set([
  'SQLITE_CANTOPEN',
  'SQLITE_CANTOPEN_ISDIR',
  'SQLITE_PERM',
  'SQLITE_READONLY',
  'SQLITE_AUTH',
  'SQLITE_IOERR',
]);

/**
 * Turns a SQLite failure into a forkpoint error a user can act on; anything
 * else passes through unchanged.
 */
export function translateSqliteError(error: unknown, location: string): unknown {
  if (
    !(error instanceof Database.SqliteError) &&
    !(error instanceof TypeError && /directory does not exist/.test(error.message))
  ) {
    return error;
  }
  const code = error instanceof Database.SqliteError ? error.code : 'SQLITE_CANTOPEN';
  if (CORRUPT.has(code)) {
    return new ForkpointError('STORE_CORRUPT', `${location} is not a readable forkpoint database (${error.message})`, {
      cause: error,
      details: { path: location, remedy: { kind: 'open-another-store', moveAside: true } },
    });
  }
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED') {
    return new ForkpointError(
      'STORE_BUSY',
      `another process held the write lock of ${location} longer than the busy timeout (${error.message}); nothing of this write was kept: run the command again`,
      { cause: error },
    );
  }
  if (code === 'SQLITE_FULL') {
    return new ForkpointError(
      'STORE_FULL',
      `the disk holding ${location} is full, or the database reached its size limit (${error.message}); nothing of the write that failed was kept. Free space there (\`forkpoint gc\` removes what has expired), then run the command again, or \`forkpoint resume\` a run it stopped`,
      { cause: error },
    );
  }
  // A table or column the schema says is there but is not: the file was changed outside forkpoint.
  if (code === 'SQLITE_ERROR' && /no such (table|column)|malformed/.test(error.message)) {
    return new ForkpointError(
      'STORE_CORRUPT',
      `${location} does not hold the schema its version says (${error.message})`,
      { cause: error, details: { path: location, remedy: { kind: 'open-another-store', restore: true } } },
    );
  }
  if (UNREADABLE.has(code) || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) {
    return new ForkpointError(
      'STORE_UNREADABLE',
      `cannot open the database at ${location} (${error.message}); check that the path is a file you can read and write`,
      { cause: error },
    );
  }
  return error;
}

/** Runs `work`, translating SQLite failures (see {@link translateSqliteError}). */
export function withSqliteErrors<T>(location: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw translateSqliteError(error, location);
  }
}
