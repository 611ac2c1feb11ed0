import type { Engine } from '../../src/engine/index.js';
import type { World } from '../../src/world/index.js';
import type { RecordResult } from '../../src/modes/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import scenario from '../../scenarios/claims-triage/index.js';

/** The claims-triage scenario. */
export { scenario };

/** The live world of the claims-triage scenario on a day, its model sampling with `seed`. */
export const worldAt = (at: string, seed = 1) => scenario.openWorld({ at, seed, latencyMs: 0 });

/**
 * A fresh claims-triage world on a day for each run of a workflow that makes
 * several, each sampling with a seed drawn from `random` (as the CLI draws them).
 */
export const worldsAt = (at: string, random: () => number) => (): World =>
  worldAt(at, Math.floor(random() * 0x100000000));

/** A build of the claims-triage scenario by name. */
export const build = (name: string) => {
  const found = scenario.builds[name];
  if (found === undefined) throw new Error(`no build ${name}`);
  return found;
};

/** A fresh in-memory engine with the incident recorded as 9b40c1d5 on 2026-03-04. */
export async function withIncident(): Promise<{ engine: Engine; incident: RecordResult }> {
  const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
  const incident = await engine.record({
    agent: build('baseline'),
    world: worldAt('2026-03-04'),
    input: { claimId: 'CLM-91077' },
    runId: '9b40c1d5',
    scenario: 'scenarios/claims-triage',
  });
  return { engine, incident };
}
