// The claims-triage incident 9b40c1d5 (CLM-91077 on 2026-03-04, build baseline), recorded as
// test/support/incident.ts records it: strict replay time and the bytes of its two cassette tiers.
import { join } from 'node:path';
import { createEngine, serializeCassette, sqliteStore } from '../../dist/src/index.js';
import scenario from '../../dist/scenarios/claims-triage/index.js';
import { perCall } from './timing.mjs';

const AT = '2026-03-04';

/** Records the incident into a file database in `dir`, then replays it strictly from a cassette fetched once (300 replays warm the JIT first). */
export async function benchIncident(dir) {
  const engine = createEngine({ store: sqliteStore({ path: join(dir, 'incident.db') }) });
  try {
    const agent = scenario.builds.baseline;
    const incident = await engine.record({
      agent,
      world: (seed) => scenario.openWorld({ at: AT, seed, latencyMs: 0 }),
      input: { claimId: 'CLM-91077' },
      at: AT,
      runId: '9b40c1d5',
      scenario: 'scenarios/claims-triage',
    });
    const cassette = engine.cassette(incident.runId);
    const replay = () => engine.replay({ agent, cassette, mode: 'strict' });
    const check = await replay();
    if (check.divergence !== null || check.steps.length !== incident.steps.length) throw new Error(`the strict replay of ${incident.runId} diverged`);
    const fullBytes = Buffer.byteLength(serializeCassette(cassette));
    const structuralBytes = Buffer.byteLength(serializeCassette(engine.cassette(incident.runId, 'structural')));
    return { steps: incident.steps.length, replayMs: await perCall(replay, { batchMs: 50, warmup: 300 }), fullBytes, structuralBytes };
  } finally {
    engine.store.close();
  }
}
