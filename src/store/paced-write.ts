import { setTimeout as sleep } from 'node:timers/promises';

/** The longest a bulk job leaves the write lock free between two of its transactions. */
export const MAX_PAUSE_MS = 100;

/**
 * Runs one write transaction of a bulk job (gc's purges, a compaction's
 * steps) and then leaves the write lock free for as long as the transaction
 * held it (at most {@link MAX_PAUSE_MS}), so that another process waiting for
 * the lock gets it. SQLite's busy handler polls every few milliseconds at
 * first and every 100 ms after a while: measured at 100k runs, a compaction
 * whose short steps came back to back kept a recorder waiting 3.5 s of its 5 s
 * busy timeout, each poll finding the next step in. Holding the lock at most
 * half the time, a waiting writer gets in within a poll or two.
 *
 * The pause is a timer: this process's other work (a recording's own writes,
 * a lease renewal) goes on meanwhile. It is for maintenance, never for a
 * recording's own writes.
 */
export async function pacedWrite<T>(work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const held = performance.now() - started;
    await sleep(Math.min(MAX_PAUSE_MS, Math.max(1, held)));
  }
}
