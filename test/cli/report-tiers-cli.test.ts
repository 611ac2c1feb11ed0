import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import scenario from '../../scenarios/claims-triage/index.js';
import { cannedCase } from '../support/canary-case.js';
import { cli, tempFolder } from '../support/cli-harness.js';
import { cliJson } from '../support/demo-answers.js';
import { httpRequest } from '../support/http-get.js';
import { build } from '../support/incident.js';
import { embeddedDocuments, expectSelfContained } from '../support/report-file.js';
import { startTestUi } from '../support/ui-over-store.js';

// A name, an email and a policy number planted in a claim: payload text of the full tier, and nothing else.
const CANARIES = ['Quillon Canaryfeather', 'quillon.canaryfeather@example.com', 'POL-CANARY7731'];
const RECORDED = '2026-03-04T09:00:00.000Z';
const KEPT = '2026-03-04T10:00:00.000Z';
// The full tier lasts 72 hours.
const EXPIRED = '2026-03-07T10:00:00.000Z';

const folder = tempFolder('forkpoint-report-tiers-');
const db = join(folder.path, 'canary.db');
let runId: string;
beforeAll(async () => {
  const store = sqliteStore({ path: db });
  const support = scenario.synthetic!;
  const testCase = support.parseCase(cannedCase(CANARIES), 'canary.json');
  try {
    const run = await createEngine({ store, clock: () => new Date(RECORDED) }).record({
      agent: build('baseline'),
      world: support.openWorld(testCase, { at: testCase.at, seed: 1, latencyMs: 0 }),
      input: testCase.input,
      scenario: 'scenarios/claims-triage',
    });
    runId = run.runId;
  } finally {
    await store.close();
  }
});
afterAll(() => {
  folder.cleanup();
});

const canariesIn = (text: string): string[] => CANARIES.filter((canary) => text.includes(canary));

async function report(name: string, now: string): Promise<string> {
  const file = join(folder.path, name);
  const result = await cli(['report', runId, '-o', file, '--now', now, '--db', db]);
  expect(result.stderr).toBe('');
  expect(result.exit).toBe(0);
  return readFileSync(file, 'utf8');
}

describe('a report respects the tiers of its run', () => {
  it('while the full tier is kept, it holds the payloads (the canaries are there to be found)', async () => {
    const kept = await report('kept.html', KEPT);
    expect(canariesIn(kept)).toEqual(CANARIES);
    expect(kept).toContain('Tier: full until 2026-03-07T09:00:00.000Z; this file does not expire with it.');
  });

  it('once it expired, before gc: says so, and holds no payload: no canary, no step, no checkpoint', async () => {
    const expired = await report('expired.html', EXPIRED);
    expect(canariesIn(expired)).toEqual([]);
    expectSelfContained(expired);
    expect(expired).toContain('Tier: full tier expired 2026-03-07T09:00:00.000Z: shape only');
    expect(expired).toContain('<p class="expired">The full tier of this run expired at 2026-03-07T09:00:00.000Z');
    expect(expired).not.toContain('class="step-detail"');
    expect(expired).not.toContain('<table class="timeline"');
    const documents = embeddedDocuments(expired);
    expect(documents.show).toEqual(await cliJson(['show', runId, '--now', EXPIRED, '--db', db]));
    expect(documents.tree).toEqual(await cliJson(['tree', runId, '--now', EXPIRED, '--db', db]));
  });

  it('compare and report --compare, once it expired and before gc: CASSETTE_EXPIRED, exit 2, no file', async () => {
    const compared = await cli(['compare', runId, runId, '--now', EXPIRED, '--db', db]);
    expect(compared.exit).toBe(2);
    expect(compared.stderr).toMatch(
      /^forkpoint: CASSETTE_EXPIRED: run \w+ keeps no steps to compare: its full tier expired at 2026-03-07T09:00:00.000Z \(gc has not removed it yet/,
    );
    const file = join(folder.path, 'expired-compared.html');
    const reported = await cli(['report', runId, '--compare', runId, '-o', file, '--now', EXPIRED, '--db', db]);
    expect(reported.exit).toBe(2);
    expect(reported.stderr).toMatch(/^forkpoint: CASSETTE_EXPIRED: [^\n]+\n$/);
    expect(existsSync(file)).toBe(false);
  });

  it('the view, once the tier expired and before gc: the step says so, no page or document holds a payload', async () => {
    await expectViewWithoutPayloads();
  });

  it('after gc removed the full tier: the same, and --json says the tier expired', async () => {
    expect((await cli(['gc', '--now', EXPIRED, '--db', db])).exit).toBe(0);
    const file = join(folder.path, 'purged.html');
    const result = await cli(['report', runId, '-o', file, '--now', EXPIRED, '--json', '--db', db]);
    expect(result.exit).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ runId, tier: 'expired', steps: 0 });
    const purged = readFileSync(file, 'utf8');
    expect(canariesIn(purged)).toEqual([]);
    expect(purged).toMatch(/Tier: full tier expired 2026-03-07T\d\d:\d\d:\d\d\.\d{3}Z: shape only/);
    expect(purged).toContain('<p class="expired">The full tier of this run expired');
    expect(embeddedDocuments(purged).show).toEqual(await cliJson(['show', runId, '--now', EXPIRED, '--db', db]));
  });

  it('the view after gc: the same', async () => {
    await expectViewWithoutPayloads();
  });
});

/** Checks every page and document of the run in the view at the time the tier expired: none holds a canary. */
async function expectViewWithoutPayloads(): Promise<void> {
  const ui = await startTestUi(db, { now: EXPIRED });
  try {
    const paths = [`/runs/${runId}`, `/runs/${runId}?step=2`, `/api/runs/${runId}`, `/api/runs/${runId}/tree`, '/runs'];
    for (const path of paths) {
      const answer = await httpRequest(ui.server.url, path);
      expect(answer.status, path).toBe(200);
      expect(canariesIn(answer.body), path).toEqual([]);
    }
    // A run whose steps are gone does not compare as a run of no steps.
    for (const path of [`/compare?a=${runId}&b=${runId}`, `/api/compare?a=${runId}&b=${runId}`]) {
      const answer = await httpRequest(ui.server.url, path);
      expect(answer.status, path).toBe(410);
      expect(answer.body, path).toMatch(/CASSETTE_EXPIRED[^\n]*keeps no steps to compare/);
      expect(canariesIn(answer.body), path).toEqual([]);
    }
    const step = await httpRequest(ui.server.url, `/runs/${runId}?step=2`);
    expect(step.body).toContain('<p class="expired">The full tier of this run expired at 2026-03-07T09:00:00.000Z');
    expect(step.body).not.toContain('class="step-detail"');
    const checkpoint = await httpRequest(ui.server.url, `/api/runs/${runId}/checkpoints/2`);
    expect(checkpoint.status).toBe(410);
    expect(checkpoint.body).toMatch(/"code":"CASSETTE_EXPIRED"/);
    expect(canariesIn(checkpoint.body)).toEqual([]);
  } finally {
    await ui.close();
  }
}
