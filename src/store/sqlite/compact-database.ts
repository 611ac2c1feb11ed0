import type Database from 'better-sqlite3';

/**
 * Free pages given back to the file system per write transaction of a
 * compaction (4 MiB at 8 KiB pages). Moving a page costs a few page writes;
 * measured here, a step of this size holds the write lock for a few
 * milliseconds, well within what a recorder waits.
 */
export const VACUUM_STEP_PAGES = 512;

/**
 * Rows of removed blobs (a digest each) deleted per write transaction of a
 * compaction. Each is a write to a random page of the digest index: 512 of
 * them hold the write lock for a few milliseconds.
 */
export const SWEEP_STEP_ROWS = 512;

/**
 * Removes what purges left (the rows of removed blobs, which hold only their
 * digests), gives freed pages back to the file system and truncates the
 * write-ahead log, so that removed bytes leave the disk. Each step is a short
 * write transaction, so that a process recording meanwhile never waits long:
 * one `incremental_vacuum` of a whole purge's pages, or a blocking checkpoint
 * of a log it filled, held the write lock for seconds. Passive checkpoints
 * between the steps copy the log into the file without holding writers back,
 * so that the truncating checkpoint at the end has little left to copy.
 */
export function compactDatabase(db: Database.Database): void {
  const sweep = db.prepare(`DELETE FROM blobs WHERE id IN (SELECT id FROM blobs INDEXED BY blobs_removed WHERE body IS NULL LIMIT ${SWEEP_STEP_ROWS})`);
  for (let swept = SWEEP_STEP_ROWS; swept === SWEEP_STEP_ROWS; ) swept = sweep.run().changes;
  db.pragma('wal_checkpoint(PASSIVE)');
  const free = (): number => db.pragma('freelist_count', { simple: true }) as number;
  // Bounded: another process freeing pages meanwhile cannot keep this going.
  for (let steps = Math.ceil(free() / VACUUM_STEP_PAGES); steps > 0 && free() > 0; steps--) {
    db.pragma(`incremental_vacuum(${VACUUM_STEP_PAGES})`);
    db.pragma('wal_checkpoint(PASSIVE)');
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
}
