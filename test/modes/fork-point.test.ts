import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { prepareFork } from '../../src/modes/fork-point.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

/** A store that counts the step rows read through `readSteps`. */
function countingStore(): { readonly store: Store; readonly rowsRead: () => number } {
  const inner = sqliteStore({ path: ':memory:' });
  let rows = 0;
  const store: Store = {
    ...inner,
    async readSteps(runId, from, to) {
      const read = await inner.readSteps(runId, from, to);
      rows += read.length;
      return read;
    },
  };
  return { store, rowsRead: () => rows };
}

const TOOL_CALLS = 100;
const STEPS = 2 * TOOL_CALLS + 1;
const changed = { kind: 'tool-result', output: { echoed: 'changed' } } as const;

async function recorded() {
  const counting = countingStore();
  const engine = createEngine({ store: counting.store });
  const agent = testAgent({ stepCap: STEPS + 2 });
  const world = syntheticWorld({ toolCalls: TOOL_CALLS });
  const run = await engine.record({ agent, world, input: { task: 'long' } });
  expect(run.steps).toHaveLength(STEPS);
  return { ...counting, engine, agent, world, run };
}

describe('fork point', () => {
  it('reads step N alone to prepare a fork, however far into the run N is', async () => {
    const { engine, agent, world, run, rowsRead, store } = await recorded();
    const read: number[] = [];
    for (const atStep of [2, 100, STEPS - 1]) {
      const before = rowsRead();
      await prepareFork(store, run.runId, atStep, { override: changed }, agent);
      read.push(rowsRead() - before);
      const fork = await engine.fork({ parentRunId: run.runId, atStep, override: changed, agent, world });
      expect(fork.status).toBe('completed');
    }
    expect(read).toEqual([1, 1, 1]);
  });

  it("finds step N in an ancestor's rows when the run forked before it", async () => {
    const { engine, agent, world, run, rowsRead, store } = await recorded();
    const child = await engine.fork({ parentRunId: run.runId, atStep: 150, override: changed, agent, world });
    const before = rowsRead();
    // Step 40 of the child is its parent's row; the child's own rows start at 150.
    await prepareFork(store, child.runId, 40, { override: changed }, agent);
    expect(rowsRead() - before).toBe(1);
    const grandchild = await engine.fork({ parentRunId: child.runId, atStep: 40, override: changed, agent, world });
    const trajectory = (await engine.getRun(grandchild.runId)).steps;
    expect(trajectory.slice(0, 39).every((step) => step.provenance === 'inherited')).toBe(true);
    expect(trajectory[39]).toMatchObject({
      step: 40,
      provenance: 'override',
      response: { output: { echoed: 'changed' } },
    });
    expect(trajectory.slice(0, 39)).toEqual(
      (await engine.getRun(run.runId)).steps.slice(0, 39).map((step) => ({ ...step, provenance: 'inherited' })),
    );
  });

  it('reads step N and the checkpoint before it, nothing more: its result holds the steps it made, as getRun shows them', async () => {
    const { engine, agent, world, run, rowsRead } = await recorded();
    const atStep = STEPS - 1;
    const before = rowsRead();
    const fork = await engine.fork({ parentRunId: run.runId, atStep, override: changed, agent, world });
    // Step N's row, to prepare the fork: none of the 200 rows before it.
    expect(rowsRead() - before).toBe(1);
    const { steps, cost, ...summary } = await engine.getRun(fork.runId);
    expect(steps).toHaveLength(STEPS);
    expect(fork.ownSteps.map((step) => step.step)).toEqual([atStep, STEPS]);
    // As JSON too (its own steps keep the key order the provider gave; a read gives the stored order).
    expect(JSON.parse(JSON.stringify(fork.ownSteps))).toEqual(steps.slice(atStep - 1));
    const { ownSteps: _own, cost: ownCost, ...forkSummary } = fork;
    expect(forkSummary).toEqual({ ...summary, stepCount: forkSummary.stepCount });
    // Its result prices its own steps, as stored; the read adds what it inherited, from the parent's steps.
    const { steps: _costs, ...whole } = cost ?? { steps: [] };
    expect(ownCost).toEqual({ ...whole, inherited: null });
    expect(cost?.inherited?.steps).toBeGreaterThan(0);
    expect(forkSummary.stepCount).toBe((await engine.getRunSummary(fork.runId)).stepCount);
  });

  it('refuses a step outside the run as before, naming its steps', async () => {
    const { engine, agent, world, run } = await recorded();
    for (const atStep of [0, STEPS + 1, 2.5]) {
      await expect(
        engine.fork({ parentRunId: run.runId, atStep, override: changed, agent, world }),
      ).rejects.toMatchObject({
        code: 'STEP_OUT_OF_RANGE',
        message: `run ${run.runId} has steps 1 to ${STEPS}; there is no step ${atStep} to fork at`,
      });
    }
  });

  it('returns its run as the store gives it back, JSON without a negative zero (a minus sign the read would drop)', async () => {
    const { engine, agent, world, run } = await recorded();
    const withNegativeZero = { kind: 'tool-result', output: { echoed: -0 } } as const;
    const fork = await engine.fork({ parentRunId: run.runId, atStep: 2, override: withNegativeZero, agent, world });
    const { ownSteps: _own, stepCount: _count, cost: _ownCost, ...summary } = fork;
    const { steps: _steps, cost: _cost, ...read } = await engine.getRun(fork.runId);
    // toEqual tells -0 from 0.
    expect(fork.parent.override).toEqual({ kind: 'tool-result', output: { echoed: 0 } });
    expect(summary).toEqual(read);
    const recording = await engine.record({ agent, world, input: { task: 'long', level: -0 } });
    expect(recording.input).toEqual({ task: 'long', level: 0 });
  });
});
