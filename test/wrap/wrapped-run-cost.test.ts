import { describe, expect, it } from 'vitest';
import { compareCosts } from '../../src/analysis/index.js';
import { createEngine } from '../../src/engine/index.js';
import { definePriceTable } from '../../src/pricing/index.js';
import { memoryStore } from '../../src/store/index.js';
import { LOOP_MODEL } from './support/claim-world.js';
import { useWrappedRuns } from './support/wrapped-runs.js';

// USD per million tokens of the model the emulator answers as.
const PRICES = definePriceTable({ models: [{ model: LOOP_MODEL, input: 3, output: 15 }] }, 'test prices');
// The emulated answers' usage: three tool turns of 120 in / 30 out, then a final turn of 200 in / 12 out.
const usd = (input: number, output: number): number => Math.round((input * 3 + output * 15) * 1e3) / 1e9;
const RECORDING = usd(3 * 120 + 200, 3 * 30 + 12);

describe('what a wrapped loop’s runs cost', () => {
  const engine = createEngine({ store: memoryStore(), prices: PRICES });
  const wrapped = useWrappedRuns(engine);

  it('prices a recording’s model steps by their usage: what it paid live', async () => {
    const { cost } = wrapped.runs.recorded;
    expect(cost?.paid).toEqual({
      usd: RECORDING,
      steps: 4,
      tokens: { input: 560, output: 102, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    });
    expect(cost?.unpriced).toEqual([]);
    expect(cost?.steps.map((step) => [step.step, step.model, step.usd])).toEqual([
      [1, LOOP_MODEL, usd(120, 30)],
      [3, LOOP_MODEL, usd(120, 30)],
      [5, LOOP_MODEL, usd(120, 30)],
      [7, LOOP_MODEL, usd(200, 12)],
    ]);
    // A listing prices the totals the run stored when it ended: the same figure.
    expect((await engine.getRunSummary(wrapped.runs.recorded.runId)).cost?.paid.usd).toBe(RECORDING);
  });

  it('reports a strict replay’s cost as avoided, none of it paid', async () => {
    const { cost } = wrapped.runs.replayed;
    expect(cost?.paid).toMatchObject({ usd: 0, steps: 0 });
    expect(cost?.avoided).toMatchObject({ usd: RECORDING, steps: 4 });
    expect((await engine.getRunSummary(wrapped.runs.replayed.runId)).cost?.avoided.usd).toBe(RECORDING);
  });

  it('splits a fork by prefix replay’s cost: the prefix inherited, the calls after the fork paid', async () => {
    const fork = await engine.getRun(wrapped.runs.forked.runId);
    expect(fork.cost?.inherited).toMatchObject({ usd: usd(240, 60), steps: 2 });
    expect(fork.cost?.paid).toMatchObject({ usd: usd(320, 42), steps: 2 });
    expect(fork.cost?.avoided).toMatchObject({ usd: 0, steps: 0 });
    // The branch's whole trajectory cost what the recording's did up to the fork, then its own calls.
    const compared = compareCosts((await engine.getRun(wrapped.runs.recorded.runId)).cost, fork.cost);
    expect(compared?.b.trajectoryUsd).toBe(Math.round((usd(240, 60) + usd(320, 42)) * 1e9) / 1e9);
    expect(compared?.difference.paidUsd).toBe(Math.round((usd(320, 42) - RECORDING) * 1e9) / 1e9);
  });
});
