import type { AgentBuild } from '../../src/agent/index.js';
import type { AgentContext } from '../../src/machine/index.js';
import type { JsonObject } from '../../src/json/index.js';
import type { Store } from '../../src/store/index.js';
import type { World } from '../../src/world/index.js';
import { CANONICAL_FORM, RequestHasher } from '../../src/cassette/index.js';
import { MACHINE_VERSION } from '../../src/machine/index.js';
import { liveTransport } from '../../src/transports/index.js';
import { driveRun, machineOf, startSnapshot } from '../../src/engine/index.js';
import { RunWriter } from '../../src/driver/run-writer.js';
import { streamingSink } from '../../src/driver/run-sink.js';
import { FROM_INPUT } from '../../src/driver/run-origin.js';

/** The state after each step of a run, as the driver saw it in memory. */
export interface Recorded {
  readonly runId: string;
  readonly values: string[];
  readonly contexts: AgentContext[];
}

/**
 * Records a run like `engine.record` does, and keeps a deep copy of every
 * snapshot the driver saw: the ground truth a restored checkpoint must equal.
 */
export async function recordWithSnapshots(
  store: Store,
  build: AgentBuild,
  world: World,
  input: JsonObject,
  runId = '0000c0de',
): Promise<Recorded> {
  const clockless = { clock: () => new Date('2026-03-04T09:00:00Z'), random: () => 0.5 };
  const snapshot = startSnapshot(build, input, clockless);
  const hasher = new RequestHasher();
  const writer = new RunWriter(streamingSink(store, { leaseClock: Date.now, leaseMs: 30_000 }), hasher, FROM_INPUT);
  await writer.start(
    {
      runId,
      mode: 'record',
      agentName: build.name,
      build: build.build,
      codeHash: build.codeHash,
      scenario: null,
      input,
      worldAt: null,
      seed: 1,
      parent: null,
      sourceRunId: null,
      sourceCassette: null,
      canonicalForm: CANONICAL_FORM,
      machineVersion: MACHINE_VERSION,
      createdAt: '2026-03-04T09:00:00.000Z',
      owner: { pid: process.pid, host: 'test', token: `owner-${runId}`, leaseExpiresAt: Date.now() + 30_000 },
      sideEffects: null,
      tier: 'full',
      expiresAt: null,
      structuralExpiresAt: null,
    },
    snapshot,
  );
  const recorded: Recorded = { runId, values: [snapshot.value], contexts: [structuredClone(snapshot.context)] };
  await driveRun({
    build,
    machine: machineOf(build),
    snapshot,
    transport: liveTransport(world),
    hasher,
    onStep: async (step) => {
      await writer.commit(step);
      recorded.values.push(step.snapshot.value);
      recorded.contexts.push(structuredClone(step.snapshot.context));
    },
  });
  return recorded;
}
