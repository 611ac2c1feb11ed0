// Reads a forkpoint database file as it sits on disk. Opens its own connection through the build's
// `openDatabase` (the bench imports only dist), so the store under test keeps its own.
import { statSync } from 'node:fs';
import { openDatabase } from '../../dist/src/store/sqlite/open-database.js';

const open = (path) => openDatabase({ path, synchronous: 'NORMAL', busyTimeoutMs: 5000, now: () => new Date() });
const sizeOf = (path) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/**
 * The bytes of the database once its log is folded in: `wal_checkpoint(TRUNCATE)`, then the main
 * file plus what is left of the log (nothing, unless a reader held it back); and, to show where they
 * go, each table and index from `dbstat`: its page bytes, the payload they hold and the bytes unused.
 */
export function settledBytes(path) {
  const db = open(path);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const byObject = db
      .prepare(
        'SELECT name, SUM(pgsize) AS bytes, SUM(payload) AS payload, SUM(unused) AS unused FROM dbstat GROUP BY name ORDER BY bytes DESC',
      )
      .all();
    return { bytes: sizeOf(path) + sizeOf(`${path}-wal`), byObject };
  } finally {
    db.close();
  }
}
