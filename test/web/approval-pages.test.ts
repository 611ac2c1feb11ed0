import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRuns } from '../support/approval-runs.js';
import {
  APPROVED,
  ASKS_MORE,
  NOTE,
  REASON,
  REJECTED,
  REVIEWER,
  WAITING,
  writeApprovalRuns,
} from '../support/approval-runs.js';
import { cli, tempFolder } from '../support/cli-harness.js';
import { cliJson } from '../support/demo-answers.js';
import { httpRequest } from '../support/http-get.js';
import { sectionOf } from '../support/markup-tags.js';
import { embeddedDocuments } from '../support/report-file.js';
import type { TestUi } from '../support/ui-over-store.js';
import { startTestUi } from '../support/ui-over-store.js';

// The view reads approvals as what they are: a person's answer about a call, and a run that waits for one.
const folder = tempFolder('forkpoint-approval-pages-');
const db = join(folder.path, 'forkpoint.db');
let runs: ApprovalRuns;
let ui: TestUi;
beforeAll(async () => {
  runs = await writeApprovalRuns(db);
  ui = await startTestUi(db);
}, 60_000);
afterAll(async () => {
  await ui.close();
  folder.cleanup();
});

async function page(path: string, on: TestUi = ui): Promise<string> {
  const answer = await httpRequest(on.server.url, path);
  expect(answer.status, path).toBe(200);
  return answer.body;
}
const api = async (path: string): Promise<unknown> => JSON.parse((await httpRequest(ui.server.url, path)).body);

describe('the page of a run waiting for approval', () => {
  it('shows the call it waits for, its input and request hash, and the commands that answer it: the view answers nothing', async () => {
    const markup = await page(`/runs/${WAITING}`);
    const panel = sectionOf(markup, '<section class="panel waiting"', '</section>');
    expect(panel).toContain(`data-request-hash="${runs.refundHash}"`);
    expect(panel).toContain('its model asked for <code>refund#0</code>');
    expect(panel).toContain(`<dd><code>${runs.refundHash}</code>`);
    expect(panel).toContain('<span class="jk">&quot;amount&quot;</span>: <span class="jn">120</span>');
    expect(panel).toContain(`<code class="command">forkpoint approve ${WAITING} --call ${runs.refundHash}</code>`);
    expect(panel).toContain(
      `<code class="command">forkpoint approve ${WAITING} --call ${runs.refundHash} --reject --reason TEXT</code>`,
    );
    expect(panel).not.toMatch(/<form|<button|method="post"/i);
    expect(sectionOf(markup, '<dl class="facts">', '</dl>')).toContain(
      'awaiting-approval</span> stopped at rest after step 5, before refund#0, which needs a person&#39;s approval',
    );
  });

  it('says the question expired with the full tier, and shows no command', async () => {
    const later = await startTestUi(db, { now: '2031-01-01T00:00:00.000Z' });
    try {
      const panel = sectionOf(await page(`/runs/${WAITING}`, later), '<section class="panel waiting"', '</section>');
      expect(panel).toContain("The call it waits for is not shown: the run's full tier expired at ");
      expect(panel).not.toContain('forkpoint approve');
    } finally {
      await later.close();
    }
  });

  it('is listed with its status on the runs page, and found by its status', async () => {
    const markup = await page('/runs?status=awaiting-approval');
    const rows = [...markup.matchAll(/<tr data-run-id="([0-9a-f]+)">/g)].map((match) => match[1]);
    expect(rows.sort()).toEqual([WAITING, ASKS_MORE].sort());
    expect(sectionOf(markup, `<tr data-run-id="${WAITING}">`, '</tr>')).toContain(
      '<span class="status status-awaiting-approval"><span aria-hidden="true">✋</span> awaiting-approval</span>',
    );
  });
});

describe('the page of a run a person approved', () => {
  it("reads the approval step as the person's answer, linked to the call it let through, and the call as approved", async () => {
    const markup = await page(`/runs/${APPROVED}`);
    const timeline = sectionOf(markup, '<table class="timeline"', '</table>');
    const answer = sectionOf(timeline, 'id="step-6"', '</tr>');
    expect(answer).toContain('data-provenance="human"');
    expect(answer).toContain('data-decision="approved"');
    expect(answer).toContain(`<a data-call-step="7" href="/runs/${APPROVED}?step=7#step-7"><code>refund#0</code></a>`);
    expect(answer).toContain(`by <span class="reviewer">${REVIEWER}</span>: <q class="note">${NOTE}</q>`);
    expect(sectionOf(timeline, 'id="step-7"', '</tr>')).toContain(
      `✋ approved at <a href="/runs/${APPROVED}?step=6#step-6">step 6</a>`,
    );
    expect(markup).not.toContain('<section class="panel waiting"');
  });

  it('opens the approval step on the answer: decision, who, when, why, and the call with its request hash', async () => {
    const detail = sectionOf(await page(`/runs/${APPROVED}?step=6`), '<section id="step-detail"', '</section>');
    const answer = sectionOf(detail, '<section class="panel answer-detail"', '</section>');
    expect(answer).toContain('data-decision="approved"');
    expect(answer).toContain(`<dd class="reviewer">${REVIEWER}</dd>`);
    expect(answer).toMatch(/<dt>at<\/dt><dd>\d{4}-\d\d-\d\dT[\d:.]+Z<\/dd>/);
    expect(answer).toContain(`<q class="note">${NOTE}</q>`);
    expect(answer).toContain(`made at <a data-call-step="7" href="/runs/${APPROVED}?step=7#step-7">step 7</a>`);
    expect(answer).toContain(`<code title="${runs.refundHash}">${runs.refundHash}</code>`);
  });

  it('marks in its lineage the fork that answered otherwise, and the fork that waits', async () => {
    const lineage = sectionOf(await page(`/runs/${APPROVED}`), '<nav class="lineage"', '</nav>');
    expect(sectionOf(lineage, `data-run-link="${REJECTED}"`, '</li>')).toContain(
      `✋ approval answered otherwise: approved -&gt; rejected, note &quot;${NOTE}&quot; -&gt; &quot;${REASON}&quot;`,
    );
    expect(sectionOf(lineage, `data-run-link="${ASKS_MORE}"`, '</li>')).toContain('status-awaiting-approval');
  });
});

describe('the fork that rejects, and the compare page', () => {
  it("shows the fork's answer as the override it is, and the call never made", async () => {
    const markup = await page(`/runs/${REJECTED}?step=6`);
    expect(sectionOf(markup, '<section class="panel override"', '</section>')).toContain(
      '◆ ✋ the approval at step 6, answered otherwise',
    );
    const answer = sectionOf(markup, '<section class="panel answer-detail"', '</section>');
    expect(answer).toContain('data-decision="rejected"');
    expect(answer).toContain('never made: the rejection stands as its result');
  });

  it('names the first divergence a person who answered otherwise', async () => {
    const markup = await page(`/compare?a=${APPROVED}&b=${REJECTED}`);
    const verdict = sectionOf(markup, '<p class="verdict">', '</p>');
    expect(verdict).toContain('<code>approval#0</code>');
    expect(verdict).toMatch(
      /<span data-approval-divergence>a person answered otherwise: <span class="decision decision-approved"[\s\S]*approved<\/span[\s\S]*→ <span class="decision decision-rejected"/,
    );
    const row = sectionOf(markup, 'id="cmp-step-6"', '</tr>');
    expect(row).toContain(`<q class="note">${NOTE}</q>`);
    expect(row).toContain(`<q class="note">${REASON}</q>`);
  });
});

describe('the documents of the view are the CLI --json documents', () => {
  it('/api/runs/<id> is `show --json`, the pending approval included; /api/runs?status=awaiting-approval is `runs`', async () => {
    const waiting = (await api(`/api/runs/${WAITING}`)) as { pendingApproval: unknown };
    expect(waiting.pendingApproval).toMatchObject({ tool: 'refund', requestHash: runs.refundHash });
    expect(waiting).toEqual(await cliJson(['show', WAITING, '--db', db]));
    expect(await api(`/api/runs/${APPROVED}`)).toEqual(await cliJson(['show', APPROVED, '--db', db]));
    expect(await api('/api/runs?status=awaiting-approval')).toEqual(
      await cliJson(['runs', '--status', 'awaiting-approval', '--db', db]),
    );
  });

  it('/api/compare and /api/runs/<id>/tree are `compare --json` and `tree --json`', async () => {
    const comparison = (await api(`/api/compare?a=${APPROVED}&b=${REJECTED}`)) as { firstDivergence: unknown };
    expect(comparison.firstDivergence).toMatchObject({ step: 6, approval: { a: 'approved', b: 'rejected' } });
    expect(comparison).toEqual(await cliJson(['compare', APPROVED, REJECTED, '--db', db]));
    expect(await api(`/api/runs/${APPROVED}/tree`)).toEqual(await cliJson(['tree', APPROVED, '--db', db]));
  });
});

describe('a report file', () => {
  it("of a waiting run shows its panel; of an answered run, the answer, and the compare with the fork's", async () => {
    const waitingFile = join(folder.path, 'waiting.html');
    expect((await cli(['report', WAITING, '-o', waitingFile, '--db', db])).exit).toBe(0);
    const waiting = readFileSync(waitingFile, 'utf8');
    expect(sectionOf(waiting, '<section class="panel waiting"', '</section>')).toContain(
      `forkpoint approve ${WAITING} --call ${runs.refundHash}`,
    );
    expect(embeddedDocuments(waiting).show).toMatchObject({ pendingApproval: { requestHash: runs.refundHash } });

    const file = join(folder.path, 'answered.html');
    expect((await cli(['report', APPROVED, '--compare', REJECTED, '-o', file, '--db', db])).exit).toBe(0);
    const report = readFileSync(file, 'utf8');
    const answer = sectionOf(report, `<section id="run-${APPROVED}-step-6-detail"`, '</section>');
    expect(answer).toContain(`made at <a data-call-step="7" href="#run-${APPROVED}-step-7">step 7</a>`);
    expect(report).toContain('<span data-approval-divergence>');
  });
});
