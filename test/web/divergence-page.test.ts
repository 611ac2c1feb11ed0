import { describe, expect, it } from 'vitest';
import { DIVERGENCE_SOURCES } from '../../src/analysis/index.js';
import type { DivergenceReportDocument, ReportedReexecution } from '../../src/workflows/index.js';
import { divergenceReport, storedDivergenceReport, storedDivergenceReports } from '../../src/workflows/index.js';
import { barChart } from '../../src/web/pages/bar-chart.js';
import { divergencePage } from '../../src/web/pages/divergence-page.js';
import { SERVER_LINKS, reportLinks } from '../../src/web/pages/page-links.js';
import { build, withIncident, worldsAt } from '../support/incident.js';

const PAYLOAD = '<script>alert(1)</script><img src=x onerror=alert(2)>';

const entry = (over: Partial<ReportedReexecution>): ReportedReexecution => ({
  recordedRunId: '9b40c1d5',
  input: { claimId: 'CLM-91077' },
  runId: '1a2b3c4d',
  repeat: 1,
  worldAt: '2026-03-09',
  seed: 7,
  recordedBuild: { build: 'baseline', codeHash: 'c0de' },
  build: { build: 'baseline', codeHash: 'c0de' },
  status: 'completed',
  source: 'tool-response',
  step: 4,
  kind: 'ocr_document',
  index: 0,
  call: 'ocr_document#0',
  on: 'response',
  reason: 'same request; ocr_document answered differently',
  diff: [{ path: 'output.fields.damage_area_cm2.value', before: '205', after: '2050' }],
  ...over,
});

/** A report of three re-executions: two left on a tool's answer (one of them with a payload), one never left. */
function report(): DivergenceReportDocument {
  const tool = [
    entry({}),
    entry({
      runId: '2b3c4d5e',
      repeat: 2,
      input: { claimId: PAYLOAD },
      diff: [{ path: 'output.text', before: 'fine', after: PAYLOAD }],
    }),
  ];
  const none = [
    entry({
      runId: '3c4d5e6f',
      recordedRunId: '0f1e2d3c',
      source: 'none',
      step: null,
      kind: null,
      index: null,
      call: null,
      on: null,
      reason: 'followed the recording to the end',
      diff: [],
    }),
  ];
  return {
    mode: 'reexecution',
    worldAt: '2026-03-09',
    repeats: 2,
    runs: 3,
    skipped: [{ runId: '4d5e6f70', code: 'CASSETTE_EXPIRED', reason: `expired: ${PAYLOAD}`, reexecutions: 2 }],
    total: 3,
    rows: DIVERGENCE_SOURCES.map((source) => {
      const entries = source === 'tool-response' ? tool : source === 'none' ? none : [];
      return { source, count: entries.length, share: entries.length / 3, entries };
    }),
    build: null,
  };
}

const draw = (document: DivergenceReportDocument, links = SERVER_LINKS): string =>
  divergencePage({ report: document, reports: [] }, links).toString();

describe('the divergence page', () => {
  it('lists every source with its count, share and meaning, and the total against runs × repeats − skipped', () => {
    const page = draw(report());
    for (const source of DIVERGENCE_SOURCES) expect(page).toContain(`data-source="${source}"`);
    expect(page).toMatch(
      /data-source="tool-response" data-count="2">[\s\S]*?<td class="num">2<\/td>\s*<td class="num">66\.7%<\/td>/,
    );
    expect(page).toMatch(/data-source="code" data-count="0">[\s\S]*?<td class="num">0\.0%<\/td>/);
    expect(page).toContain('same request; a tool answered differently (the world moved)');
    expect(page).toContain('= 3 runs × 2 − 2 skipped');
    expect(page).toContain(
      '3 recorded runs × 2 re-executed against the world of 2026-03-09 · each run&#39;s own build',
    );
  });

  it('draws a bar per source: a width against the largest, and its label and count as text', () => {
    const page = draw(report());
    const bars = [...page.matchAll(/<g class="bar" data-bar="([^"]+)" data-count="(\d+)">([\s\S]*?)<\/g>/g)];
    expect(bars.map((bar) => bar[1])).toEqual(DIVERGENCE_SOURCES);
    const widthOf = (source: string) => {
      const bar = bars.find((each) => each[1] === source)![3]!;
      return Number(/<rect [^>]*width="([\d.]+)"/.exec(bar)![1]);
    };
    expect(widthOf('tool-response')).toBe(360);
    expect(widthOf('none')).toBe(180);
    expect(widthOf('code')).toBe(0);
    expect(bars.find((bar) => bar[1] === 'tool-response')![3]).toMatch(
      />tool-response<\/text>[\s\S]*>2 \(66\.7%\)<\/text>/,
    );
    expect(page).toContain('role="img" aria-label="first-divergence sources"');
  });

  it('lists each source’s re-executions, linked to their runs and to the compare with their recordings', () => {
    const page = draw(report());
    expect(page).toContain('id="source-tool-response"');
    expect(page).not.toContain('id="source-code"');
    expect(page).toContain('href="/runs/1a2b3c4d"');
    expect(page).toContain('href="/compare?a=9b40c1d5&amp;b=1a2b3c4d"');
    expect(page).toContain('step 4 <code>ocr_document#0</code>, on the response');
    expect(page).toMatch(/<code>output\.fields\.damage_area_cm2\.value<\/code> <del>205<\/del> <ins>2050<\/ins>/);
    expect(page).toContain('never: followed the recording to the end');
    expect(page).toMatch(/data-skipped="4d5e6f70">[\s\S]*CASSETTE_EXPIRED/);
  });

  it('shows payload text as text, in content and attributes alike, and has no inline style', () => {
    const page = draw(report());
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).toContain('claimId=&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page).toContain('expired: &lt;script&gt;');
    expect(page).not.toMatch(/style=/i);
    const chart = barChart([{ label: '" onmouseover="alert(1)', count: 1 }], { title: '<b>t</b>' }).toString();
    expect(chart).toContain('data-bar="&quot; onmouseover=&quot;alert(1)"');
    expect(chart).toContain('<title>&lt;b&gt;t&lt;/b&gt;</title>');
  });

  it('says what to run when nothing is classified, without a chart', () => {
    const empty: DivergenceReportDocument = {
      ...report(),
      runs: 0,
      repeats: 0,
      total: 0,
      skipped: [],
      rows: DIVERGENCE_SOURCES.map((source) => ({ source, count: 0, share: 0, entries: [] })),
      build: 'patched',
    };
    const page = draw(empty);
    expect(page).not.toContain('<svg');
    expect(page).toContain('forkpoint divergence-report --all-recorded --at 2026-03-09 --build patched');
    expect(page).toContain('<td class="num">-</td>');
  });

  it('links nowhere in a report file, and to the other reports of the store on the server', () => {
    const offline = draw(report(), reportLinks(new Set(), false));
    expect(offline).not.toContain('href="/');
    expect(offline).toContain('<code>1a2b3c4d</code>');
    const page = divergencePage(
      {
        report: report(),
        reports: [
          { at: '2026-03-09', build: null, reexecutions: 3 },
          { at: '2026-03-10', build: 'patched', reexecutions: 4 },
        ],
      },
      SERVER_LINKS,
    ).toString();
    expect(page).toContain(
      '<a href="/divergence?at=2026-03-10&amp;build=patched">the world of 2026-03-10, build patched</a>',
    );
    expect(page).not.toContain('href="/divergence?at=2026-03-09"');
  });

  it('draws a report read from a store: the incident re-executed leaves at step 4, 205 -> 2050', async () => {
    const { engine, incident } = await withIncident();
    let draws = 0;
    await divergenceReport(engine, {
      runIds: [incident.runId],
      repeats: 2,
      plan: () => ({ agent: build('baseline'), world: worldsAt('2026-03-09', () => (draws++ * 0.618) % 1) }),
    });
    const stored = await storedDivergenceReport(engine, { at: '2026-03-09' });
    const page = divergencePage(
      { report: stored, reports: await storedDivergenceReports(engine) },
      SERVER_LINKS,
    ).toString();
    expect(page).toMatch(/data-source="tool-response" data-count="2"/);
    expect(page).toContain(`href="/compare?a=${incident.runId}&amp;b=`);
    expect(page).toMatch(/<del>205<\/del> <ins>2050<\/ins>/);
    expect(page).toContain('href="/divergence?at=2026-03-09&amp;build=baseline"');
  });
});
