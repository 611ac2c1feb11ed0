// A fork deep in a long run against the restore it needs.
import { join } from 'node:path';
import { createEngine } from '../../dist/src/engine/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import { INPUT, syntheticWorld, toolCallsFor } from './synthetic-agent.mjs';
import { median, timeOnce } from './timing.mjs';

/**
 * Records one run of `steps` steps into a file database, then alternates, `rounds` times after
 * `warmup` rounds: restoring checkpoint N-1 (`engine.checkpoint`), and forking at step N = steps - 1
 * (a tool step) with a changed tool result, run to the end (the override step and the final model turn,
 * each committed). The ratio is the median of each round's fork over its restore, so that the machine's
 * drift moves both. A fork's result holds the steps it made: reading its whole trajectory
 * (`engine.getRun` of the fork) is timed apart, as is reading the parent (what `show` does).
 */
export async function benchLongFork({ dir, agent, steps, resultBytes, rounds, warmup = 3 }) {
  const world = syntheticWorld({ toolCalls: toolCallsFor(steps), resultBytes });
  const engine = createEngine({ store: sqliteStore({ path: join(dir, `long-fork-${steps}.db`) }) });
  try {
    const run = await engine.record({ agent, world: world, input: INPUT });
    if (run.status !== 'completed' || run.steps.length !== steps)
      throw new Error(`the recording ended ${run.status} after ${run.steps.length} steps`);
    const atStep = steps - 1;
    const restore = () => engine.checkpoint(run.runId, atStep - 1);
    const fork = () =>
      engine.fork({
        parentRunId: run.runId,
        atStep,
        override: { kind: 'tool-result', output: { echoed: 'changed' } },
        agent,
        world: world,
      });
    const restoreMs = [];
    const forkMs = [];
    const forkStepsMs = [];
    const showMs = [];
    for (let round = 0; round < warmup + rounds; round++) {
      const restored = await timeOnce(restore);
      let forked;
      const forking = await timeOnce(async () => {
        forked = await fork();
      });
      if (forked.status !== 'completed') throw new Error(`the fork at step ${atStep} ended ${forked.status}`);
      // A fork's result holds the steps it made; its whole trajectory is a read of its own.
      let trajectory;
      const reading = await timeOnce(async () => {
        trajectory = await engine.getRun(forked.runId);
      });
      if (trajectory.steps.length !== steps)
        throw new Error(`the fork reads ${trajectory.steps.length} steps, not ${steps}`);
      const showing = await timeOnce(() => engine.getRun(run.runId));
      if (round < warmup) continue;
      restoreMs.push(restored);
      forkMs.push(forking);
      forkStepsMs.push(reading);
      showMs.push(showing);
    }
    return {
      atStep,
      restoreMs: median(restoreMs),
      forkMs: median(forkMs),
      ratio: median(forkMs.map((ms, round) => ms / restoreMs[round])),
      forkStepsMs: median(forkStepsMs),
      showMs: median(showMs),
    };
  } finally {
    await engine.store.close();
  }
}
