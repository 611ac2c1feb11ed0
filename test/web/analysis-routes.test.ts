import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import type { Engine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import type { UiServer } from '../../src/web/index.js';
import { startUiServer } from '../../src/web/index.js';
import { runWordsFor } from '../../src/cli/run-words.js';
import type { DivergenceReportDocument, VerifyResult } from '../../src/workflows/index.js';
import { divergenceReport, divergenceReportDocument, verifyRun } from '../../src/workflows/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { build, worldsAt } from '../support/incident.js';
import scenario from '../../scenarios/claims-triage/index.js';

const AT = '2026-03-09';

describe('the divergence and verify routes of the view, over a store opened read-only', () => {
  const folder = tempFolder('forkpoint-analysis-routes-');
  const path = `${folder.path}/forkpoint.db`;
  let report: DivergenceReportDocument;
  let verification: VerifyResult;
  let store: Store;
  let engine: Engine;
  let server: UiServer;
  let contents: string;

  beforeAll(async () => {
    const writing = sqliteStore({ path });
    const maker = createEngine({ store: writing });
    await maker.record({
      agent: build('baseline'),
      world: scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }),
      input: { claimId: 'CLM-91077' },
      runId: '9b40c1d5',
      scenario: 'scenarios/claims-triage',
    });
    let draws = 0;
    const made = await divergenceReport(maker, {
      runIds: ['9b40c1d5'],
      repeats: 2,
      plan: () => ({ agent: build('baseline'), world: worldsAt(AT, () => (draws++ * 0.618) % 1) }),
    });
    report = divergenceReportDocument(made, AT, null);
    verification = await verifyRun(maker, {
      runId: '9b40c1d5',
      candidate: build('patched'),
      baseline: build('baseline'),
      mode: 'replay',
    });
    await writing.close();
    store = sqliteStore({ path, readOnly: true });
    engine = createEngine({ store });
    contents = JSON.stringify(await store.listRuns());
    server = await startUiServer({ engine, words: runWordsFor, port: 0 });
  });

  afterAll(async () => {
    await server.close();
    await store.close();
    folder.cleanup();
  });

  const get = (path: string) => fetch(new URL(path, server.url), { redirect: 'manual' });

  it('serves the report divergence-report printed as /api/divergence, and draws it at /divergence', async () => {
    const json = await get(`/api/divergence?at=${AT}`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(JSON.parse(JSON.stringify(report)));
    const page = await get(`/divergence?at=${AT}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("style-src 'self'");
    const text = await page.text();
    expect(text).toContain('<svg class="bars"');
    expect(text).toMatch(/data-source="tool-response" data-count="2"/);
    expect(text).toContain(`href="/api/divergence?at=${AT}"`);
    expect(text).not.toMatch(/style="/);
  });

  it('serves the result verify printed as /api/verify, and draws it at /verify', async () => {
    const query = 'run=9b40c1d5&candidate=patched&baseline=baseline&mode=replay';
    const json = await get(`/api/verify?${query}`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(JSON.parse(JSON.stringify(verification)));
    const page = await (await get(`/verify?${query}`)).text();
    expect(page).toContain('data-verdict="fix-confirmed"');
    expect(page).toContain(`href="/runs/${verification.control.runs[0]!}"`);
  });

  it('goes from a bare /divergence and /verify?run= to the first report and verification the store holds', async () => {
    const divergence = await get('/divergence');
    expect(divergence.status).toBe(302);
    expect(divergence.headers.get('location')).toBe(`/divergence?at=${AT}`);
    const verify = await get('/verify?run=9b40c1d5');
    expect(verify.status).toBe(302);
    expect(verify.headers.get('location')).toBe('/verify?run=9b40c1d5&candidate=patched&baseline=baseline&mode=replay');
  });

  it('links the recording’s page to its verifications', async () => {
    const page = await (await get('/runs/9b40c1d5')).text();
    expect(page).toContain(
      '<a href="/verify?run=9b40c1d5&amp;candidate=patched&amp;baseline=baseline&amp;mode=replay">patched against baseline, strict replays</a>',
    );
  });

  it('answers bad queries with their codes: a missing date, an arm with no run, an unknown run, a malformed id', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/divergence', 400, 'USAGE'],
      ['/api/divergence?at=2026-13-01', 400, 'USAGE'],
      ['/api/divergence?at=2026-03-09&runs=<script>', 400, 'USAGE'],
      ['/api/verify?run=9b40c1d5&candidate=patched', 400, 'USAGE'],
      ['/api/verify?run=9b40c1d5&candidate=timestamped&baseline=baseline', 404, 'RUN_NOT_FOUND'],
      ['/api/verify?run=0badc0de&candidate=patched&baseline=baseline', 404, 'RUN_NOT_FOUND'],
      ['/api/verify?run=9b40c1d5&candidate=patched&baseline=baseline&mode=fidelity', 400, 'USAGE'],
    ];
    for (const [path, status, code] of cases) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, status]);
      expect(await answer.json()).toMatchObject({ error: { code } });
    }
    const page = await get('/verify?run=9b40c1d5&mode=reexecution');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('forkpoint verify 9b40c1d5 --candidate BUILD --baseline BUILD');
  });

  it('writes nothing: every run record is as it was', async () => {
    await get(`/divergence?at=${AT}`);
    await get('/verify?run=9b40c1d5&candidate=patched&baseline=baseline');
    expect(JSON.stringify(await store.listRuns())).toBe(contents);
  });
});
