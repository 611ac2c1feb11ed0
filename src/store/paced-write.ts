/** The longest a bulk job leaves the write lock free between two of its transactions. */
export const MAX_PAUSE_MS = 100;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

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
 * The pause blocks this thread (the store's calls are synchronous): it is for
 * maintenance, never for a recording's own writes.
 */
export function pacedWrite<T>(work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    const held = performance.now() - started;
    Atomics.wait(sleeper, 0, 0, Math.min(MAX_PAUSE_MS, Math.max(1, held)));
  }
}
