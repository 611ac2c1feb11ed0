// Per-step overhead within one long run: does a step late in a 5,001-step run cost what an early one does?
import { join } from 'node:path';
import { createEngine } from '../../dist/src/engine/index.js';
import { liveTransport } from '../../dist/src/transports/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import { driveRun, machineOf, startSnapshot } from '../../dist/src/engine/index.js';
import { INPUT, syntheticWorld, toolCallsFor } from './synthetic-agent.mjs';
import { median } from './timing.mjs';

// As in recording.mjs: the bare run hashes nothing, stores nothing.
const constantHasher = {
  hashModelRequest: () => ({ canonical: '', hash: '0000000000000000', messageDigests: { list: [], length: 0 } }),
  hashToolRequest: () => ({ canonical: '', hash: '0000000000000000' }),
};
const promptEnvironment = { clock: () => new Date(), random: Math.random };

/**
 * The synthetic world, with the time of every call it answers: call k is step k's, so the gap between
 * two calls is what the run spent on the step between them (the driver, the machine, and for a
 * recording the hashing, encoding and commit).
 */
function stampedWorld(world, stamps) {
  return {
    model: { respond: (request) => (stamps.push(performance.now()), world.model.respond(request)) },
    tools: { echo: (input) => (stamps.push(performance.now()), world.tools.echo(input)) },
  };
}

/**
 * Milliseconds per step in each tenth of the run: the median over the tenth of a model and tool step
 * pair (steps alternate, and a pair costs the same wherever it falls), halved. The median leaves out
 * the few steps that paid for a WAL checkpoint or a major GC, as the bench's overhead does.
 */
function perStepByTenth(stamps) {
  const steps = stamps.length;
  const tenths = [];
  for (let tenth = 0; tenth < 10; tenth++) {
    const from = Math.floor((tenth * steps) / 10);
    const to = Math.floor(((tenth + 1) * steps) / 10);
    const pairs = [];
    for (let i = from; i < to && i + 2 < steps; i += 2) pairs.push((stamps[i + 2] - stamps[i]) / 2);
    tenths.push(median(pairs));
  }
  return tenths;
}

/**
 * Records `rounds` runs of `steps` steps into one file database, each after a bare drive of the same
 * run, and returns the per-step overhead (recorded minus bare) in each tenth of the run, median over
 * the rounds. `warmup` shorter rounds first warm the JIT.
 */
export async function benchLongSteps({ dir, agent, steps, rounds, resultBytes, warmup = 2 }) {
  const store = sqliteStore({ path: join(dir, `long-steps-${steps}.db`) });
  const engine = createEngine({ store });
  const once = async (length) => {
    const world = syntheticWorld({ toolCalls: toolCallsFor(length), resultBytes });
    const bareStamps = [];
    const bare = await driveRun({
      build: agent,
      machine: machineOf(agent),
      snapshot: startSnapshot(agent, INPUT, promptEnvironment),
      transport: liveTransport(stampedWorld(world, bareStamps)),
      hasher: constantHasher,
      onStep: () => {},
    });
    if (bare.snapshot.value !== 'done') throw new Error(`the bare run ended in ${bare.snapshot.value}`);
    const recordStamps = [];
    const run = await engine.record({ agent, world: stampedWorld(world, recordStamps), input: INPUT });
    if (run.status !== 'completed' || run.steps.length !== length)
      throw new Error(`the recording ended ${run.status} after ${run.steps.length} steps`);
    return { bare: perStepByTenth(bareStamps), recorded: perStepByTenth(recordStamps) };
  };
  try {
    for (let round = 0; round < warmup; round++) await once(Math.min(steps, 1001));
    const samples = [];
    for (let round = 0; round < rounds; round++) samples.push(await once(steps));
    const tenth = (i) => ({
      bareMs: median(samples.map((sample) => sample.bare[i])),
      recordedMs: median(samples.map((sample) => sample.recorded[i])),
      // Each round's recording against the bare run just before it, as in recording.mjs.
      overheadMs: median(samples.map((sample) => sample.recorded[i] - sample.bare[i])),
    });
    return { tenths: Array.from({ length: 10 }, (_, i) => tenth(i)) };
  } finally {
    await store.close();
  }
}
