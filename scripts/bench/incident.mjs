// The claims-triage incident 9b40c1d5 (CLM-91077 on 2026-03-04, build baseline), recorded as
// test/support/incident.ts records it: strict replay time and the bytes of its two cassette tiers.
import { join } from 'node:path';
import { createEngine } from '../../dist/src/engine/index.js';
import { serializeCassette } from '../../dist/src/cassette/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import scenario from '../../dist/scenarios/claims-triage/index.js';
import { median, timeOnce } from './timing.mjs';

const AT = '2026-03-04';

/**
 * Records the incident into a file database in `dir`, then replays it strictly from a cassette
 * fetched once: 300 replays warm the JIT, then each of 301 more is timed on its own. The issue asks
 * for the median replay; the 90th percentile shows the tail (GC, WAL checkpoints) next to it.
 */
export async function benchIncident(dir) {
  const engine = createEngine({ store: sqliteStore({ path: join(dir, 'incident.db') }) });
  try {
    const agent = scenario.builds.baseline;
    const incident = await engine.record({
      agent,
      world: scenario.openWorld({ at: AT, seed: 1, latencyMs: 0 }),
      input: { claimId: 'CLM-91077' },
      runId: '9b40c1d5',
      scenario: 'scenarios/claims-triage',
    });
    const cassette = await engine.cassette(incident.runId);
    const replay = () => engine.replay({ agent, cassette, mode: 'strict' });
    const check = await replay();
    if (check.divergence !== null || check.steps.length !== incident.steps.length)
      throw new Error(`the strict replay of ${incident.runId} diverged`);
    const fullBytes = Buffer.byteLength(serializeCassette(cassette));
    const structuralBytes = Buffer.byteLength(serializeCassette(await engine.cassette(incident.runId, 'structural')));
    for (let i = 0; i < 300; i++) await replay();
    const times = [];
    for (let i = 0; i < 301; i++) times.push(await timeOnce(replay));
    times.sort((a, b) => a - b);
    return {
      steps: incident.steps.length,
      replayMs: median(times),
      replayP90Ms: times[Math.floor(0.9 * times.length)],
      fullBytes,
      structuralBytes,
    };
  } finally {
    await engine.store.close();
  }
}
