import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { httpRequest } from '../support/http-get.js';
import { sectionOf } from '../support/markup-tags.js';
import type { TestUi } from '../support/ui-over-store.js';
import { startTestUi } from '../support/ui-over-store.js';
import type { WrappedRuns } from '../wrap/support/wrapped-runs.js';
import { wrappedStoreFile } from '../wrap/support/wrapped-store.js';

// The view reads the runs an hour after they were made, as `forkpoint ui --now` would: their full tier is kept.
const folder = tempFolder('forkpoint-wrapped-pages-');
const db = join(folder.path, 'wrapped.db');
let runs: WrappedRuns;
let ui: TestUi;
beforeAll(async () => {
  const made = await wrappedStoreFile(db);
  await made.emulator.close();
  runs = made.runs;
  ui = await startTestUi(db, { now: '2026-03-04T11:00:00.000Z' });
});
afterAll(async () => {
  await ui.close();
  folder.cleanup();
});

async function page(path: string): Promise<string> {
  const answer = await httpRequest(ui.server.url, path);
  expect(answer.status, `${path}: ${answer.body.slice(0, 300)}`).toBe(200);
  return answer.body;
}

// Every step's row on a run page, in order: its kind#index and where its answer came from.
const stepRows = (markup: string): string[] =>
  [...markup.matchAll(/<code>([a-z_]+#\d+)<\/code>[\s\S]*?data-provenance="([a-z]+)"/g)].map(
    (match) => `${match[1] ?? ''} ${match[2] ?? ''}`,
  );

describe('the web view of a wrapped loop’s runs', () => {
  it('lists the three runs, and the recording among the recent lineages with its fork and its replay', async () => {
    const { forked, recorded, replayed } = runs;
    const markup = await page('/runs');
    const table = sectionOf(markup, '<table class="runs">', '</table>');
    expect([...table.matchAll(/<tr data-run-id="([0-9a-f]+)">/g)].map((match) => match[1])).toEqual([
      forked.runId,
      replayed.runId,
      recorded.runId,
    ]);
    expect(table).toContain('<span class="mode mode-fork-prefix">fork:prefix</span>');
    const entry = sectionOf(markup, `<li data-lineage="${recorded.runId}">`, '</li>');
    expect(entry).toContain('1 fork · 1 replay');
  });

  it('shows the fork by prefix replay’s page: its mode label, the headline that says what it is, every step', async () => {
    const { forked, recorded } = runs;
    const markup = await page(`/runs/${forked.runId}`);
    expect(markup).toContain('<span class="mode mode-fork-prefix">fork:prefix</span>');
    expect(markup).toContain(`re-run over the recording of run ${recorded.runId} up to step 4`);
    expect(markup).toContain('a fork by prefix replay, no state restored');
    expect(stepRows(markup)).toEqual([
      'model#0 inherited',
      'fetch_claim#0 inherited',
      'model#1 inherited',
      'ocr_document#0 override',
      'model#2 live',
      'estimate_repair#0 live',
      'model#3 live',
    ]);
    expect(ui.internalErrors).toEqual([]);
  });

  it('shows the recording’s page with the fork and the replay under it', async () => {
    const { forked, recorded, replayed } = runs;
    const markup = await page(`/runs/${recorded.runId}`);
    expect(markup).toContain('<span class="mode mode-record">record</span>');
    expect(markup).toContain('(your own loop)');
    expect(markup).toContain(`/runs/${forked.runId}`);
    expect(markup).toContain(`/runs/${replayed.runId}`);
  });

  it('opens a wrapped step with the checkpoint after it: the conversation the loop sent so far', async () => {
    const { forked, recorded } = runs;
    // Step 5 is model#2: the loop's third request, which carried the OCR's result (205 recorded, 2050 forked).
    const recordedStep = await page(`/runs/${recorded.runId}?step=5`);
    const forkedStep = await page(`/runs/${forked.runId}?step=5`);
    for (const markup of [recordedStep, forkedStep]) {
      expect(markup).toContain('<summary>checkpoint after step 5</summary>');
      const checkpoint = markup.slice(markup.indexOf('<summary>checkpoint after step 5</summary>'));
      expect(checkpoint).toContain('Triage claim CLM-91077.');
      expect(checkpoint).toContain('Reading the claim.');
      expect(checkpoint).toContain('Reading the invoice.');
    }
    expect(recordedStep.slice(recordedStep.indexOf('checkpoint after step 5'))).toMatch(
      /invoiceTotal[^<]*<[\s\S]*?205/,
    );
    expect(forkedStep.slice(forkedStep.indexOf('checkpoint after step 5'))).toContain('2050');
    expect(ui.internalErrors).toEqual([]);
  });

  it('compares the fork with its parent: both mode labels, the first divergence at step 4', async () => {
    const { forked, recorded } = runs;
    const markup = await page(`/compare?a=${recorded.runId}&b=${forked.runId}`);
    expect(markup).toContain('<span class="mode mode-record">record</span>');
    expect(markup).toContain('<span class="mode mode-fork-prefix">fork:prefix</span>');
    expect(markup).toMatch(/first divergence[\s\S]{0,200}step 4/);
    const json = JSON.parse(
      (await httpRequest(ui.server.url, `/api/compare?a=${recorded.runId}&b=${forked.runId}`)).body,
    ) as {
      firstDivergence: unknown;
      b: { mode: string; loop?: string };
    };
    expect(json.firstDivergence).toEqual({ step: 4, kind: 'ocr_document', index: 0, on: 'response' });
    expect(json.b).toMatchObject({ mode: 'fork:prefix', loop: 'wrapped' });
  });
});
