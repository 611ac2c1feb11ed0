import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/json/index.js';
import { createEngine } from '../../src/engine/index.js';
import { serializeCassette } from '../../src/cassette/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { parseJsonInput } from '../../src/json/index.js';
import scenario from '../../scenarios/claims-triage/index.js';
import { build } from '../support/incident.js';
import { tempFolder } from '../support/cli-harness.js';

// Strings that must not survive their tier: a name, an email and a policy number planted in a claim.
const CANARIES = ['Quillon Canaryfeather', 'quillon.canaryfeather@example.com', 'POL-CANARY7731'];

function cannedCase(): JsonObject {
  const data = parseJsonInput(
    readFileSync('scenarios/claims-triage/synthetic/syn-01-hail-approve.json', 'utf8'),
    'syn-01',
  ) as JsonObject;
  const claim = data.claim as JsonObject;
  const policy = data.policy as JsonObject;
  return {
    ...data,
    claim: { ...claim, holder: CANARIES[0]!, holderEmail: CANARIES[1]!, policyId: CANARIES[2]! },
    policy: { ...policy, policyId: CANARIES[2]! },
  };
}

/** Every byte the database keeps on disk: the file, its write-ahead log and its shared-memory index. */
const diskBytes = (path: string): string =>
  ['', '-wal', '-shm']
    .map((suffix) => (existsSync(path + suffix) ? readFileSync(path + suffix).toString('latin1') : ''))
    .join('');

describe('canaries planted in a claim', () => {
  const folders: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.cleanup();
  });

  it('appear in no byte of the structural cassette, nor of the database file after gc', async () => {
    const folder = tempFolder('forkpoint-canary-');
    folders.push(folder);
    const path = join(folder.path, 'canary.db');
    let now = new Date('2026-03-04T09:00:00.000Z');
    const engine = createEngine({ store: sqliteStore({ path }), clock: () => now });
    const support = scenario.synthetic!;
    const testCase = support.parseCase(cannedCase(), 'canary.json');
    const run = await engine.record({
      agent: build('baseline'),
      world: support.openWorld(testCase, { at: testCase.at, seed: 1, latencyMs: 0 }),
      input: testCase.input,
    });
    expect(run.outcome).toMatchObject({ decision: 'approve' });
    const full = serializeCassette(await engine.cassette(run.runId));
    const structural = serializeCassette(await engine.cassette(run.runId, 'structural'));
    for (const canary of CANARIES) {
      // Planted: the full tier and the file hold each canary, so the checks below can fail.
      expect(full).toContain(canary);
      expect(diskBytes(path)).toContain(canary);
      expect(structural).not.toContain(canary);
    }

    now = new Date('2026-03-07T10:00:00.000Z');
    expect((await engine.gc()).purged.map((purged) => purged.runId)).toEqual([run.runId]);
    const after = diskBytes(path);
    for (const canary of CANARIES) expect(after).not.toContain(canary);
    expect((await engine.cassette(run.runId, 'structural')).entries).toHaveLength(run.steps.length);
    await engine.store.close();
  });
});
