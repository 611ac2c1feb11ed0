import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';

/** How {@link deterministicEngine} counts: where its run ids start, and what its randomness draws. */
export interface DeterministicCounts {
  /** The first run id, as a number (default 0x10000000): ids count up from it in hex. */
  readonly firstId?: number;
  /** The randomness (default: a low-discrepancy sequence, the same on every run of the suite). */
  readonly random?: () => number;
}

/**
 * An engine on an in-memory SQLite store whose clock ticks a second per
 * reading from 2026-03-04T09:00, whose run ids count up, and whose
 * randomness repeats: every run of a test is the same run.
 */
export function deterministicEngine(counts: DeterministicCounts = {}): Engine {
  let now = Date.parse('2026-03-04T09:00:00.000Z');
  let ids = counts.firstId ?? 0x10000000;
  let draws = 0;
  return createEngine({
    store: sqliteStore({ path: ':memory:' }),
    clock: () => new Date((now += 1000)),
    newRunId: () => (ids++).toString(16),
    random: counts.random ?? (() => (draws++ * 0.6180339887) % 1),
  });
}
