import type { World } from '../../src/world/index.js';
import { build, worldAt } from './incident.js';

// Full tiers last 72 hours: a run made on the 4th is sealed under the 7th's key, one made on the 5th under
// the 8th's. A key is deleted once its day is over.
export const DAY_4 = new Date('2026-03-04T09:00:00.000Z');
export const DAY_5 = new Date('2026-03-05T09:00:00.000Z');
export const KEY_7 = 'full:2026-03-07';
export const KEY_8 = 'full:2026-03-08';
export const SEED = 20260304;
/** The incident's recording options, without its world. */
export const INCIDENT = {
  agent: build('baseline'),
  input: { claimId: 'CLM-91077' },
  scenario: 'scenarios/claims-triage',
};
/** The claims world of the 4th, with the tests' seed. */
export const world = (): World => worldAt('2026-03-04', SEED);

/** The claims world whose provider fails its `failing`-th call with a dropped connection. */
export const droppingWorld = (failing: number): World => {
  const base = world();
  let calls = 0;
  return {
    ...base,
    model: {
      respond: (request) =>
        ++calls === failing
          ? Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
          : base.model.respond(request),
    },
  };
};
