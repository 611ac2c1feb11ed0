// Per-step overhead and storage of recording the synthetic agent, at one run length.
import { join } from 'node:path';
import { createEngine } from '../../dist/src/engine/index.js';
import { liveTransport } from '../../dist/src/transports/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import { driveRun, machineOf, startSnapshot } from '../../dist/src/engine/index.js';
import { INPUT, syntheticAgent, syntheticWorld, toolCallsFor } from './synthetic-agent.mjs';
import { settledBytes } from './sqlite-file.mjs';
import { median, timeOnce } from './timing.mjs';

// The bare run hashes nothing: every request gets the same constant hash.
const constantHasher = {
  hashModelRequest: () => ({ canonical: '', hash: '0000000000000000', messageDigests: { list: [], length: 0 } }),
  hashToolRequest: () => ({ canonical: '', hash: '0000000000000000' }),
};
const promptEnvironment = { clock: () => new Date(), random: Math.random };

/**
 * The bare baseline: `driveRun` (the loop `engine.record` uses) over the same build's machine and the
 * same instant transport (`liveTransport` over the same synthetic world), with a constant hasher and a
 * no-op `onStep`: no store, no hashing, no checkpoint encoding, no cassette. Chosen over replaying
 * responses through `transition` by hand because it keeps everything a recording does besides those
 * (the driver's request building and awaits, the transport's answer checks), so the difference is
 * what recording adds and nothing else.
 */
export async function driveBare(world) {
  const result = await driveRun({
    build: syntheticAgent,
    machine: machineOf(syntheticAgent),
    snapshot: startSnapshot(syntheticAgent, INPUT, promptEnvironment),
    transport: liveTransport(world),
    hasher: constantHasher,
    onStep: () => {},
  });
  if (result.snapshot.value !== 'done') throw new Error(`the bare run ended in ${result.snapshot.value}`);
}

/** The raw payload of a run: every distinct message of its conversation and every distinct tool output, as JSON text. */
async function payloadBytes(engine, run) {
  const texts = new Set(
    (await engine.checkpoint(run.runId, run.steps.length)).context.messages.map((message) => JSON.stringify(message)),
  );
  for (const step of run.steps) if (step.kind !== 'model') texts.add(JSON.stringify(step.response.output));
  let bytes = 0;
  for (const text of texts) bytes += Buffer.byteLength(text);
  return bytes;
}

/** What the run added to each table and index: its pages, the payload they hold, the bytes left unused. */
function growthByObject(settled, empty) {
  const before = new Map(empty.byObject.map((object) => [object.name, object]));
  return settled.byObject
    .map(({ name, bytes, payload, unused }) => {
      const was = before.get(name) ?? { bytes: 0, payload: 0, unused: 0 };
      return { name, bytes: bytes - was.bytes, payload: payload - was.payload, unused: unused - was.unused };
    })
    .filter((object) => object.bytes > 0);
}

/**
 * Records `warmup + rounds` runs of `steps` steps into one file database (opened before the clock
 * starts, as a recorder keeps its store open), each next to a bare run of the same length; the first
 * `warmup` pairs warm the JIT and are dropped. Runs accumulate in that database, so the WAL
 * checkpoints SQLite makes as the log fills fall inside the timed runs, as they would in a long-lived
 * recorder. Storage is measured apart, on a fresh database holding one more run and nothing else,
 * against `empty`, the settled bytes of an empty database. Returns that database's engine, still
 * open, its run and the world it ran in.
 */
export async function benchRecording({ dir, steps, resultBytes, rounds, warmup, empty }) {
  const world = syntheticWorld({ toolCalls: toolCallsFor(steps), resultBytes });
  const record = (engine) => engine.record({ agent: syntheticAgent, world: world, input: INPUT });
  const checked = (run) => {
    if (run.status !== 'completed' || run.steps.length !== steps)
      throw new Error(`the recording ended ${run.status} after ${run.steps.length} steps`);
    return run;
  };
  const recorder = createEngine({ store: sqliteStore({ path: join(dir, `record-${steps}.db`) }) });
  const recordMs = [];
  const bareMs = [];
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      const bare = await timeOnce(() => driveBare(world));
      const recorded = await timeOnce(async () => checked(await record(recorder)));
      if (round >= warmup) {
        recordMs.push(recorded / steps);
        bareMs.push(bare / steps);
      }
    }
  } finally {
    await recorder.store.close();
  }

  const engine = createEngine({ store: sqliteStore({ path: join(dir, `storage-${steps}.db`) }) });
  const run = checked(await record(engine));
  const settled = settledBytes(engine.store.location);
  const payload = await payloadBytes(engine, run);
  const recordPerStep = median(recordMs);
  const barePerStep = median(bareMs);
  // The median run leaves out the few that paid for a WAL checkpoint or a major GC; the mean keeps them.
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    engine,
    run,
    world,
    recordMsPerStep: recordPerStep,
    bareMsPerStep: barePerStep,
    // Each recorded run against the bare run timed just before it: the machine's drift over the rounds
    // moves both, and cancels out of their difference.
    overheadMs: median(recordMs.map((recorded, round) => recorded - bareMs[round])),
    meanOverheadMs: mean(recordMs) - mean(bareMs),
    runBytes: settled.bytes - empty.bytes,
    payloadBytes: payload,
    storageRatio: (settled.bytes - empty.bytes) / payload,
    byObject: growthByObject(settled, empty),
  };
}
