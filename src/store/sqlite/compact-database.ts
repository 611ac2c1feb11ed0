import type Database from 'better-sqlite3';
import { pacedWrite } from '../paced-write.js';

/**
 * How long one write transaction of a compaction works before it commits
 * (its commit, which writes what it changed to the log, comes on top). The
 * work per row or page varies by two orders of magnitude with the size of
 * the database and how much of it is cached: measured here, removing the row
 * of a purged blob cost 15 µs at 10k runs and 0.5 ms at 100k (a random page
 * of the digest index, often rebalanced), so steps are sized by time, not
 * by count.
 */
export const COMPACT_STEP_MS = 20;
// The units a step repeats until its time is up: small, so that a step ends close to it.
const SWEEP_ROWS = 32;
const VACUUM_PAGES = 16;

/**
 * Removes what purges left (the rows of removed blobs, which hold only their
 * digests), gives freed pages back to the file system and truncates the
 * write-ahead log, so that removed bytes leave the disk. Each step is a short
 * write transaction, and the lock is left free after it (see `pacedWrite`),
 * so that a process recording meanwhile never waits long: one
 * `incremental_vacuum` of a whole purge's pages, or a blocking checkpoint of a
 * log it filled, held the write lock for seconds. Passive checkpoints between
 * the steps copy the log into the file without holding writers back, so that
 * the truncating checkpoint at the end has little left to copy.
 */
export async function compactDatabase(db: Database.Database, readsEnded: () => Promise<void>): Promise<void> {
  const sweep = db.prepare(
    `DELETE FROM blobs WHERE id IN (SELECT id FROM blobs INDEXED BY blobs_removed WHERE body IS NULL LIMIT ${SWEEP_ROWS})`,
  );
  while (await step(db, readsEnded, () => sweep.run().changes === SWEEP_ROWS));
  // Checkpoints, like the steps, wait for the reads this connection opened during a pause.
  const checkpoint = async (mode: 'PASSIVE' | 'TRUNCATE'): Promise<void> => {
    await readsEnded();
    db.pragma(`wal_checkpoint(${mode})`);
  };
  await checkpoint('PASSIVE');
  const free = (): number => db.pragma('freelist_count', { simple: true }) as number;
  // Bounded: another process freeing pages meanwhile cannot keep this going.
  let units = Math.ceil(free() / VACUUM_PAGES) + 1;
  const vacuum = (): boolean => {
    db.pragma(`incremental_vacuum(${VACUUM_PAGES})`);
    return --units > 0 && free() > 0;
  };
  while (units > 0 && free() > 0 && (await step(db, readsEnded, vacuum))) await checkpoint('PASSIVE');
  await checkpoint('TRUNCATE');
}

// One write transaction that repeats `unit` until it says it is done or COMPACT_STEP_MS have passed;
// whether there is more to do. A read of this connection may have opened during the pause before it.
async function step(db: Database.Database, readsEnded: () => Promise<void>, unit: () => boolean): Promise<boolean> {
  await readsEnded();
  return pacedWrite(() =>
    db
      .transaction((): boolean => {
        const started = performance.now();
        let more = unit();
        while (more && performance.now() - started < COMPACT_STEP_MS) more = unit();
        return more;
      })
      .immediate(),
  );
}
