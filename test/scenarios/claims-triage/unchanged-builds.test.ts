import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { CLAIMS, baseline, patched, timestamped } from '../../../scenarios/claims-triage/index.js';
import type { AgentBuild } from '../../../src/agent/index.js';
import { INCIDENT_DAY, LATER_DAY, recordClaim } from './claims-fixtures.js';

// The values these builds had before the claims world gained a payment tool, measured then and written out:
// the recorded fixtures, the README's hashes and every stored run of these builds depend on them staying so.
const CODE_HASHES = { baseline: '694c97ae0d243afa', patched: '38ff97bb2ed45562', timestamped: '1221ffc6e07c715a' };
const TRAJECTORIES: Readonly<Record<string, string>> = {
  [`${INCIDENT_DAY}/baseline`]: '896ead4ff3c62614',
  [`${INCIDENT_DAY}/patched`]: '1a12980e735e199d',
  // On the later day OCR v2 reads every form clearly: patched's guard never fires, so it runs as baseline does.
  [`${LATER_DAY}/baseline`]: 'ca69942967678003',
  [`${LATER_DAY}/patched`]: 'ca69942967678003',
};

/** sha256 (16 hex) over every claim's run on `at`: its ending, and each step's kind, request hash and response. */
async function trajectoryDigest(agent: AgentBuild, at: string): Promise<string> {
  const digest = createHash('sha256');
  for (const claim of CLAIMS) {
    const run = await recordClaim({ claimId: claim.claimId, at, seed: 20260304, agent });
    const steps = run.steps.map((step) => [step.kind, step.requestHash, step.response]);
    digest.update(JSON.stringify([run.status, run.outcome, run.error, steps]));
  }
  return digest.digest('hex').slice(0, 16);
}

describe('the builds that offer no payment tool', () => {
  test('keep their code hashes', () => {
    expect({
      baseline: baseline.codeHash,
      patched: patched.codeHash,
      timestamped: timestamped.codeHash,
    }).toEqual(CODE_HASHES);
  });

  test.each([
    [INCIDENT_DAY, 'baseline'],
    [INCIDENT_DAY, 'patched'],
    [LATER_DAY, 'baseline'],
    [LATER_DAY, 'patched'],
  ] as const)('run every claim on %s exactly as before, request hashes and responses alike (%s)', async (at, name) => {
    const agent = name === 'baseline' ? baseline : patched;
    expect(await trajectoryDigest(agent, at)).toBe(TRAJECTORIES[`${at}/${name}`]);
  });
});
