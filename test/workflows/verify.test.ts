import { verifyRun } from '../../src/workflows/index.js';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, worldAt, worldsAt } from '../support/incident.js';

/** A repeatable stand-in for the engine's randomness, so the drawn seeds are the same on every run. */
function steppedRandom(): () => number {
  let n = 0;
  return () => (n++ * 0.6180339887) % 1;
}

describe('engine.verify', () => {
  it('calls outcomes that vary across repeats flaky, with the counts (CLM-91091, a faint but legible form)', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }), random: steppedRandom() });
    const recorded = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04', 1),
      input: { claimId: 'CLM-91091' },
    });
    const result = await verifyRun(engine, {
      runId: recorded.runId,
      candidate: build('patched'),
      baseline: build('baseline'),
      mode: 'reexecution',
      world: worldsAt('2026-03-04', steppedRandom()),
      repeats: 12,
      sideEffects: 'simulate',
    });
    expect(result.verdict).toBe('flaky');
    const candidateCounts = Object.values(result.candidate.outcomes);
    expect(candidateCounts.length + Object.keys(result.control.outcomes).length).toBeGreaterThan(2);
    expect(candidateCounts.reduce((sum, count) => sum + count, 0)).toBe(12);
    expect(result.reason).toMatch(/outcomes are mixed across repeats: .*completed: approve \d+\/12/);
  });
});
