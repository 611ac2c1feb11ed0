import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';
import { httpRequest } from '../support/http-get.js';
import { expectOnlyOwnMarkup, sectionOf } from '../support/markup-tags.js';
import type { TestUi } from '../support/ui-over-store.js';
import { startTestUi } from '../support/ui-over-store.js';
import {
  ESCAPED_IMAGE,
  ESCAPED_LABEL,
  ESCAPED_NOTE,
  ESCAPED_REASON,
  ESCAPED_REVIEWER,
  ESCAPED_SCRIPT,
  IMAGE,
  MARKUP_LABEL,
  MARKUP_NOTE,
  MARKUP_REASON,
  MARKUP_REVIEWER,
  MARKUP_TOOL,
  SCRIPT,
  XSS_APPROVED,
  XSS_FORK,
  XSS_REJECTED,
  XSS_RUN,
  writeXssRuns,
} from '../support/xss-runs.js';

// Model text and tool results are untrusted: every page shows them as text, never as markup.
const folder = tempFolder('forkpoint-xss-');
const db = join(folder.path, 'xss.db');
const ESCAPED_TOOL = '&lt;img src=x onerror=alert(3)&gt;';
let ui: TestUi;
beforeAll(async () => {
  await writeXssRuns(db);
  ui = await startTestUi(db);
});
afterAll(async () => {
  await ui.close();
  folder.cleanup();
});

async function page(path: string): Promise<string> {
  const answer = await httpRequest(ui.server.url, path);
  expect(answer.status, path).toBe(200);
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  return answer.body;
}

function expectNoRawPayload(markup: string, what: string): void {
  for (const raw of [
    SCRIPT,
    IMAGE,
    MARKUP_TOOL,
    MARKUP_LABEL,
    MARKUP_REVIEWER,
    MARKUP_NOTE,
    MARKUP_REASON,
    '<script>alert',
    '<img ',
    '<svg',
  ])
    expect(markup, what).not.toContain(raw);
}

describe('a run whose model text and tool results hold markup, on the server', () => {
  it('the run page shows them escaped in the timeline and in the opened step, and holds no markup of theirs', async () => {
    const markup = await page(`/runs/${XSS_RUN}?step=2`);
    expectNoRawPayload(markup, 'run page');
    expectOnlyOwnMarkup(markup, 1, 'run page');
    const timeline = sectionOf(markup, '<table class="timeline"', '</table>');
    // Step 1 asks echo with the image as its input, step 2 is echo's answer holding both, step 3 calls the markup-named tool.
    expect(sectionOf(timeline, 'id="step-1"', '</tr>')).toContain(ESCAPED_IMAGE);
    expect(sectionOf(timeline, 'id="step-2"', '</tr>')).toContain(ESCAPED_SCRIPT);
    expect(sectionOf(timeline, 'id="step-4"', '</tr>')).toContain(`<code>${ESCAPED_TOOL}#0</code>`);
    const detail = sectionOf(markup, '<section id="step-detail"', '</section>');
    expect(detail).toContain('data-step="2"');
    const response = sectionOf(detail, '<details class="step-response"', '<details class="step-checkpoint"');
    expect(response).toContain(`&quot;${ESCAPED_SCRIPT}&quot;`);
    expect(response).toContain(`&quot;${ESCAPED_IMAGE}&quot;`);
    expect(sectionOf(detail, '<details class="step-checkpoint"', '</section>')).toContain(ESCAPED_SCRIPT);
    expect(sectionOf(markup, '<dl class="facts">', '</dl>')).toContain(`${ESCAPED_SCRIPT} ${ESCAPED_IMAGE}`);
  });

  it("the fork's page shows its override and its lineage's live side effect escaped", async () => {
    const markup = await page(`/runs/${XSS_FORK}?step=4`);
    expectNoRawPayload(markup, 'fork page');
    expectOnlyOwnMarkup(markup, 1, 'fork page');
    const override = sectionOf(markup, '<section class="panel override"', '</section>');
    expect(override).toContain(`<del>&quot;${ESCAPED_SCRIPT}&quot;</del> <ins>&quot;${ESCAPED_IMAGE}&quot;</ins>`);
    const lineage = sectionOf(markup, '<nav class="lineage"', '</nav>');
    expect(lineage).toContain(`live side effects: ${ESCAPED_TOOL}#0 (step 4)`);
    const detail = sectionOf(markup, '<section id="step-detail"', '</section>');
    expect(detail).toContain(`<code>${ESCAPED_TOOL}#0</code>`);
  });

  it("the parent's lineage lists the fork's live side effect escaped", async () => {
    const lineage = sectionOf(await page(`/runs/${XSS_RUN}`), '<nav class="lineage"', '</nav>');
    expect(lineage).toContain(`live side effects: ${ESCAPED_TOOL}#0 (step 4)`);
    expectNoRawPayload(lineage, 'lineage');
  });

  it('the compare page shows the field diff of the overridden step escaped', async () => {
    const markup = await page(`/compare?a=${XSS_RUN}&b=${XSS_FORK}`);
    expectNoRawPayload(markup, 'compare page');
    expectOnlyOwnMarkup(markup, 1, 'compare page');
    expect(markup).toContain('data-first-divergence');
    const changes = sectionOf(markup, '<tr class="changes-row" data-changes-of="2">', '</tr>');
    expect(changes).toContain(
      `<code>output.image</code> <del>&quot;${ESCAPED_IMAGE}&quot;</del> <ins>&quot;${ESCAPED_SCRIPT}&quot;</ins>`,
    );
    expect(changes).toContain(
      `<code>output.text</code> <del>&quot;${ESCAPED_SCRIPT}&quot;</del> <ins>&quot;${ESCAPED_IMAGE}&quot;</ins>`,
    );
  });

  it('the runs page shows the input escaped', async () => {
    const markup = await page('/runs');
    expectNoRawPayload(markup, 'runs page');
    expectOnlyOwnMarkup(markup, 1, 'runs page');
    expect(sectionOf(markup, `<tr data-run-id="${XSS_RUN}">`, '</tr>')).toContain(`task=${ESCAPED_IMAGE}`);
  });

  it("the classes page shows a class's tool names and the build's labels escaped", async () => {
    const markup = await page('/classes');
    expectNoRawPayload(markup, 'classes page');
    expectOnlyOwnMarkup(markup, 1, 'classes page');
    const table = sectionOf(markup, '<table class="classes">', '</table>');
    expect(table).toContain(`<code>echo [${ESCAPED_LABEL}] → ${ESCAPED_TOOL}</code>`);
  });

  it("the similar page shows the run's class and its lead escaped", async () => {
    const markup = await page(`/runs/${XSS_RUN}/similar`);
    expectNoRawPayload(markup, 'similar page');
    expectOnlyOwnMarkup(markup, 1, 'similar page');
    expect(sectionOf(markup, '<p class="headline">', '</p>')).toContain(`echo [${ESCAPED_LABEL}] → ${ESCAPED_TOOL}`);
    expect(sectionOf(markup, '<dl class="facts">', '</dl>')).toContain(
      `all after <code>echo [${ESCAPED_LABEL}]</code>`,
    );
  });

  it("shows a reviewer's name and note as text: in the approval's row, its opened answer and the call it let through", async () => {
    const markup = await page(`/runs/${XSS_APPROVED}?step=6`);
    expectNoRawPayload(markup, 'approved run page');
    expectOnlyOwnMarkup(markup, 1, 'approved run page');
    const row = sectionOf(sectionOf(markup, '<table class="timeline"', '</table>'), 'id="step-6"', '</tr>');
    expect(row).toContain(`by <span class="reviewer">${ESCAPED_REVIEWER}</span>: <q class="note">${ESCAPED_NOTE}</q>`);
    const answer = sectionOf(markup, '<section class="panel answer-detail"', '</section>');
    expect(answer).toContain(`<dd class="reviewer">${ESCAPED_REVIEWER}</dd>`);
    expect(answer).toContain(`<q class="note">${ESCAPED_NOTE}</q>`);
    // The raw answer is in the folded response too, as JSON text.
    expect(sectionOf(markup, '<details class="step-response"', '</details>')).toContain(`&quot;${ESCAPED_NOTE}&quot;`);
  });

  it("shows a fork's other answer as text: its reason in the timeline, the override and the parent's lineage", async () => {
    const markup = await page(`/runs/${XSS_REJECTED}?step=6`);
    expectNoRawPayload(markup, 'rejecting fork page');
    expectOnlyOwnMarkup(markup, 1, 'rejecting fork page');
    const row = sectionOf(sectionOf(markup, '<table class="timeline"', '</table>'), 'id="step-6"', '</tr>');
    expect(row).toContain(`<q class="note">${ESCAPED_REASON}</q>`);
    expect(sectionOf(markup, '<section class="panel override"', '</section>')).toContain(
      `<ins>&quot;${ESCAPED_REASON}&quot;</ins>`,
    );
    const lineage = sectionOf(await page(`/runs/${XSS_APPROVED}`), '<nav class="lineage"', '</nav>');
    expect(lineage).toContain(`note &quot;${ESCAPED_NOTE}&quot; -&gt; &quot;${ESCAPED_REASON}&quot;`);
    expectNoRawPayload(lineage, 'lineage of the approved run');
  });

  it('the compare page shows both answers, names and notes as text', async () => {
    const markup = await page(`/compare?a=${XSS_APPROVED}&b=${XSS_REJECTED}`);
    expectNoRawPayload(markup, 'compare page of answers');
    expectOnlyOwnMarkup(markup, 1, 'compare page of answers');
    expect(markup).toContain('data-approval-divergence');
    const row = sectionOf(markup, 'id="cmp-step-6"', '</tr>');
    expect(row).toContain(`<q class="note">${ESCAPED_NOTE}</q>`);
    expect(row).toContain(`<q class="note">${ESCAPED_REASON}</q>`);
    expect(row).toContain(`<span class="reviewer">${ESCAPED_REVIEWER}</span>`);
  });

  it('an error page echoes a query value holding markup as text', async () => {
    const answer = await httpRequest(ui.server.url, `/runs?mode=${encodeURIComponent(SCRIPT)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(`got &quot;${ESCAPED_SCRIPT}&quot;`);
    expectNoRawPayload(answer.body, 'error page');
  });
});

describe('the report file of the run compared with its fork', () => {
  it('shows every payload escaped, in the run, its lineage and the comparison, and embeds them only as JSON', async () => {
    const file = join(folder.path, 'report.html');
    const result = await cli(['report', XSS_RUN, '--compare', XSS_FORK, '-o', file, '--db', db]);
    expect(result.stderr).toBe('');
    expect(result.exit).toBe(0);
    const markup = readFileSync(file, 'utf8');
    expectNoRawPayload(markup, 'report');
    // Its inline page script and its embedded documents: nothing else runs.
    expectOnlyOwnMarkup(markup, 2, 'report');
    const timeline = sectionOf(markup, '<table class="timeline"', '</table>');
    expect(sectionOf(timeline, `id="run-${XSS_RUN}-step-2"`, '</tr>')).toContain(ESCAPED_SCRIPT);
    const detail = sectionOf(markup, `<section id="run-${XSS_RUN}-step-2-detail"`, '</section>');
    expect(detail).toContain(`&quot;${ESCAPED_IMAGE}&quot;`);
    expect(sectionOf(markup, '<nav class="lineage"', '</nav>')).toContain(`live side effects: ${ESCAPED_TOOL}#0`);
    const changes = sectionOf(markup, '<tr class="changes-row" data-changes-of="2">', '</tr>');
    expect(changes).toContain(`<del>&quot;${ESCAPED_IMAGE}&quot;</del> <ins>&quot;${ESCAPED_SCRIPT}&quot;</ins>`);
    const data = sectionOf(markup, '<script type="application/json" id="forkpoint-data">', '</script>');
    expect(data.slice(data.indexOf('>') + 1, -'</script>'.length)).not.toContain('<');
    expect(data).toContain('\\u003cscript>alert(1)\\u003c/script>');
  });

  it("shows a reviewer's name and note escaped in a report of the answered run compared with the fork that rejects", async () => {
    const file = join(folder.path, 'answers.html');
    const result = await cli(['report', XSS_APPROVED, '--compare', XSS_REJECTED, '-o', file, '--db', db]);
    expect(result.exit, result.stderr).toBe(0);
    const markup = readFileSync(file, 'utf8');
    expectNoRawPayload(markup, 'report of answers');
    expectOnlyOwnMarkup(markup, 2, 'report of answers');
    const answer = sectionOf(markup, `<section id="run-${XSS_APPROVED}-step-6-detail"`, '</section>');
    expect(answer).toContain(`<dd class="reviewer">${ESCAPED_REVIEWER}</dd>`);
    expect(answer).toContain(`<q class="note">${ESCAPED_NOTE}</q>`);
    expect(sectionOf(markup, 'id="cmp-step-6"', '</tr>')).toContain(`<q class="note">${ESCAPED_REASON}</q>`);
  });
});
