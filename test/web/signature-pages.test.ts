import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassesResult, SimilarResult } from '../../src/workflows/index.js';
import { cli } from '../support/cli-harness.js';
import { cliJson } from '../support/demo-answers.js';
import { getJson, httpRequest } from '../support/http-get.js';
import { sectionOf } from '../support/markup-tags.js';
import { sqliteStore } from '../../src/store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import type { TestUi } from '../support/ui-over-store.js';
import { startTestUiOver } from '../support/ui-over-store.js';
import { useDemoUi } from '../support/demo-ui.js';
import { INCIDENT_ID } from '../support/web-demo.js';

// The demo's store holds a hundred recorded runs in some twenty classes, and a fix verified against the incident's.
const demo = useDemoUi('forkpoint-ui-classes-');
const { db } = demo;

async function page(path: string): Promise<string> {
  const answer = await httpRequest(demo.ui.server.url, path);
  expect(answer.status, `${path}: ${answer.body.slice(0, 300)}`).toBe(200);
  return answer.body;
}

const runLinks = (markup: string): string[] =>
  [...markup.matchAll(/<a data-run-link="([0-9a-f]+)" href="\/runs\/\1">/g)].map((match) => match[1] ?? '');

describe('the documents of classes and similar are the CLI --json documents', () => {
  it('/api/classes is `classes --json`, with --since and --status alike', async () => {
    const all = (await demo.api('/api/classes')) as ClassesResult;
    expect(all.classes.length).toBeGreaterThan(5);
    expect(all).toEqual(await cliJson(['classes', '--db', db]));
    expect(await demo.api('/api/classes?status=failed')).toEqual(
      await cliJson(['classes', '--status', 'failed', '--db', db]),
    );
    expect(await demo.api('/api/classes?since=2000-01-01')).toEqual(
      await cliJson(['classes', '--since', '2000-01-01', '--db', db]),
    );
    const none = (await demo.api('/api/classes?since=2999-01-01&status=completed')) as ClassesResult;
    expect(none).toMatchObject({ recorded: 0, classes: [] });
    expect(none).toEqual(await cliJson(['classes', '--since', '2999-01-01', '--status', 'completed', '--db', db]));
  });

  it('/api/runs/<id>/similar is `similar <id> --json`, for the incident and its fork, with --since alike', async () => {
    const incident = (await demo.api(`/api/runs/${INCIDENT_ID}/similar`)) as SimilarResult;
    expect(incident.same.runIds).toContain(INCIDENT_ID);
    expect(incident).toEqual(await cliJson(['similar', INCIDENT_ID, '--db', db]));
    expect(await demo.api(`/api/runs/${demo.forkId}/similar`)).toEqual(
      await cliJson(['similar', demo.forkId, '--db', db]),
    );
    expect(await demo.api(`/api/runs/${INCIDENT_ID}/similar?since=2999-01-01`)).toEqual(
      await cliJson(['similar', INCIDENT_ID, '--since', '2999-01-01', '--db', db]),
    );
  });
});

describe('the classes page', () => {
  it('lists every class of the document, largest first, each example and checking run linked', async () => {
    const result = (await demo.api('/api/classes')) as ClassesResult;
    const markup = await page('/classes');
    const table = sectionOf(markup, '<table class="classes">', '</table>');
    const rows = [...table.matchAll(/<tr data-class="([0-9a-f]+)">/g)].map((match) => match[1]);
    expect(rows).toEqual(result.classes.map((kind) => kind.digest));
    for (const kind of result.classes) {
      const row = sectionOf(table, `<tr data-class="${kind.digest}">`, '</tr>');
      expect(row).toContain(`<td class="num">${kind.runs}</td>`);
      expect(runLinks(row)[0]).toBe(kind.example);
      expect(row).toContain(`href="/runs/${kind.example}/similar"`);
    }
    const fixed = result.classes.find((kind) => kind.verified !== null);
    expect(fixed?.verified?.runId).toBe(INCIDENT_ID);
    const row = sectionOf(table, `<tr data-class="${fixed?.digest ?? ''}">`, '</tr>');
    expect(row).toContain(`<span data-verified="${fixed?.verified?.checkRunId ?? ''}">patched (reexecution `);
    expect(runLinks(sectionOf(row, '<span data-verified', '</span>'))).toEqual([
      fixed?.verified?.checkRunId,
      INCIDENT_ID,
    ]);
    expect(markup).toContain('<a class="json-link" href="/api/classes">');
  });

  it('filters by status and period as the document does, and keeps the filter in its form', async () => {
    const failed = (await demo.api('/api/classes?status=failed')) as ClassesResult;
    const markup = await page('/classes?status=failed');
    expect([...markup.matchAll(/<tr data-class=/g)]).toHaveLength(failed.classes.length);
    expect(failed.classes.every((kind) => kind.words.ending.startsWith('failed'))).toBe(true);
    expect(markup).toContain('<option selected>failed</option>');
    expect(markup).toContain('<a class="json-link" href="/api/classes?status=failed">');
    const later = await page('/classes?since=2999-01-01');
    expect(later).not.toContain('<table class="classes">');
    expect(later).toContain('no recorded run with a failure signature since 2999-01-01');
  });

  it('is listed in the top bar of every page', async () => {
    for (const path of ['/runs', `/runs/${INCIDENT_ID}`, '/classes'])
      expect(sectionOf(await page(path), '<nav class="top-nav">', '</nav>'), path).toContain(
        '<a href="/classes">classes</a>',
      );
  });
});

describe('the similar page', () => {
  it("shows the incident's class, its counts, its lead and both groups of runs linked", async () => {
    const result = (await demo.api(`/api/runs/${INCIDENT_ID}/similar`)) as SimilarResult;
    const markup = await page(`/runs/${INCIDENT_ID}/similar`);
    expect(markup).toContain(
      `class: <code>${result.words.trajectory.replace('<', '&lt;')}</code> → ${result.words.ending}`,
    );
    expect(markup).toContain(`<dd data-same="${result.same.runs}">${result.same.runs} run`);
    expect(markup).toContain(`of ${result.recorded} recorded in the store`);
    expect(markup).toContain(`<dt>by build</dt><dd>baseline ${result.same.byBuild.baseline ?? 0}</dd>`);
    expect(markup).toContain('all after <code>ocr_document [ocr-confidence&lt;0.5]</code>');
    const same = sectionOf(markup, '<h2>the runs of its class</h2>', '</ul>');
    expect(runLinks(same)).toEqual(result.same.runIds);
    const path = sectionOf(markup, '<h2>the same path, ended otherwise</h2>', '</article>');
    expect(result.samePath.runs).toBeGreaterThan(0);
    expect(path).toContain(`<p data-same-path="${result.samePath.runs}">`);
    expect(runLinks(path)).toEqual(result.samePath.runIds);
    for (const [ending, count] of Object.entries(result.samePath.byEnding))
      expect(path).toContain(`<li>${count} ${ending}</li>`);
    expect(markup).toContain(`<a class="json-link" href="/api/runs/${INCIDENT_ID}/similar">`);
  });

  it('counts only the period asked for', async () => {
    const markup = await page(`/runs/${INCIDENT_ID}/similar?since=2999-01-01`);
    expect(markup).toContain('<dd data-same="0">0 runs of 0 recorded since 2999-01-01 (0.0%)</dd>');
    expect(markup).toContain(
      `<a class="json-link" href="/api/runs/${INCIDENT_ID}/similar?since=2999-01-01T00%3A00%3A00.000Z">`,
    );
  });

  it("is linked from the run's page", async () => {
    for (const runId of [INCIDENT_ID, demo.forkId])
      expect(await page(`/runs/${runId}`)).toContain(`<a data-similar href="/runs/${runId}/similar">`);
  });
});

describe('what the two pages refuse', () => {
  // What `forkpoint classes --since` prints on stderr, after its code: the page says the same line.
  it.each([
    ['classes', '/classes', '/api/classes'],
    ['similar', `/runs/${INCIDENT_ID}/similar`, `/api/runs/${INCIDENT_ID}/similar`],
  ])('a malformed since on %s: 400 USAGE with the line the CLI prints', async (command, pagePath, apiPath) => {
    const args = command === 'similar' ? [command, INCIDENT_ID] : [command];
    const printed = await cli([...args, '--since', 'yesterday', '--db', db]);
    expect(printed.exit).toBe(2);
    const line = printed.stderr.trim().replace(/^forkpoint: USAGE: /, '');
    expect(line).toContain('--since must be a date');
    const answer = await httpRequest(demo.ui.server.url, `${pagePath}?since=yesterday`);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(`<span class="code">USAGE</span>: ${line.replace(/"/g, '&quot;')}</p>`);
    expect(await getJson(demo.ui.server.url, `${apiPath}?since=yesterday`)).toEqual({
      status: 400,
      document: { error: { code: 'USAGE', message: line } },
    });
  });

  it.each([['/classes?status=running'], ['/api/classes?status=sideways'], ['/runs/XYZ/similar']])(
    '%s: 400 USAGE',
    async (path) => {
      const answer = await httpRequest(demo.ui.server.url, path);
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('USAGE');
    },
  );

  it.each([['/runs/deadbeef/similar'], ['/api/runs/deadbeef/similar']])('an unknown run, %s: 404', async (path) => {
    const answer = await httpRequest(demo.ui.server.url, path);
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('RUN_NOT_FOUND');
  });
});

describe('a run without a signature', () => {
  // One ended before forkpoint made signatures (its row has none), one still running under a live lease.
  const ENDED = '0000aaaa0001';
  const RUNNING = '0000aaaa0002';
  let bare: TestUi;
  beforeAll(async () => {
    const store = sqliteStore({ path: ':memory:' });
    for (const runId of [ENDED, RUNNING])
      await store.createRun(
        sampleRun({ runId, owner: { pid: 1, host: 'elsewhere', token: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 4e12 } }),
        sampleStep(0, { checkpointFull: true }),
        [],
      );
    await store.finishRun(ENDED, SAMPLE_OWNER_TOKEN, {
      status: 'completed',
      outcome: { ok: true },
      error: null,
      finishedAt: '2026-03-04T10:00:05.000Z',
    });
    bare = await startTestUiOver(store);
  });
  afterAll(async () => {
    await bare.close();
  });

  it.each([[ENDED], [RUNNING]])('%s: SIGNATURE_MISSING (400) on the page and in the document', async (runId) => {
    const answer = await httpRequest(bare.server.url, `/runs/${runId}/similar`);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<section class="error-page" data-error-code="SIGNATURE_MISSING">');
    const document = await getJson(bare.server.url, `/api/runs/${runId}/similar`);
    expect(document.status).toBe(400);
    expect(document.document).toMatchObject({ error: { code: 'SIGNATURE_MISSING' } });
  });

  it('has no link to the runs like it on its page, and is in no class', async () => {
    const run = await httpRequest(bare.server.url, `/runs/${ENDED}`);
    expect(run.status).toBe(200);
    expect(run.body).toContain(`<article class="run" id="run-${ENDED}"`);
    expect(run.body).not.toContain('data-similar');
    expect((await getJson(bare.server.url, '/api/classes')).document).toMatchObject({ recorded: 0, classes: [] });
  });
});
