import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApprovalRuns } from '../support/approval-runs.js';
import { APPROVED, NOTE, REJECTED, REVIEWER, WAITING, writeApprovalRuns } from '../support/approval-runs.js';
import { tempFolder } from '../support/cli-harness.js';
import { describeBrowser, openBrowser, screenshot, type BrowserSession } from '../support/chromium.js';
import { forkpoint, startUi, type UiServer } from '../support/forkpoint-process.js';
import { expectOnlyLocalRequests } from '../support/request-guard.js';

// A person's answers, looked at: `forkpoint ui` over refund runs that wait, were approved, and were answered otherwise.
let folder: ReturnType<typeof tempFolder>;
let db: string;
let runs: ApprovalRuns;
let ui: UiServer;
let session: BrowserSession;
const undo: (() => unknown)[] = [];

describeBrowser('forkpoint ui and report in Chromium: approvals', () => {
  beforeAll(async () => {
    folder = tempFolder('forkpoint-browser-approvals-');
    undo.push(() => {
      folder.cleanup();
    });
    db = join(folder.path, 'forkpoint.db');
    runs = await writeApprovalRuns(db);
    ui = await startUi(db);
    undo.push(() => ui.stop());
    session = await openBrowser();
    undo.push(() => session.close());
  }, 60_000);
  afterAll(async () => {
    for (const step of undo.reverse()) await step();
  });

  it('shows a waiting run its call and the command to answer it, and offers no way to answer from the page', async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/runs?status=awaiting-approval`);
    await page.locator(`table.runs tr[data-run-id="${WAITING}"] a[href="/runs/${WAITING}"]`).click();
    await page.waitForURL(`${ui.origin}/runs/${WAITING}`);
    const panel = page.locator('section.panel.waiting');
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.locator('h2').textContent()).toContain('waiting for approval');
    const commands = await panel.locator('code.command').allTextContents();
    expect(commands).toEqual([
      `forkpoint approve ${WAITING} --call ${runs.refundHash}`,
      `forkpoint approve ${WAITING} --call ${runs.refundHash} --reject --reason TEXT`,
    ]);
    expect(await page.locator('form[method="post"], button:not(form.filters button)').count()).toBe(0);
    await screenshot(page, 'approval-waiting');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it("opens an approval on the person's answer, and follows it to the call it let through", async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/runs/${APPROVED}`);
    await page.locator('tr#step-6 a[href*="step=6"]').click();
    await page.waitForURL((url) => url.searchParams.get('step') === '6');
    const answer = page.locator('section#step-detail[data-step="6"] section.answer-detail');
    expect(await answer.isVisible()).toBe(true);
    expect(await answer.locator('dd.reviewer').textContent()).toBe(REVIEWER);
    expect(await answer.locator('q.note').textContent()).toBe(NOTE);
    expect(await answer.locator('[data-decision]').textContent()).toContain('approved');
    await screenshot(page, 'approval-answer');
    await answer.locator('a[data-call-step="7"]').click();
    await page.waitForURL((url) => url.searchParams.get('step') === '7');
    expect(await page.locator('section#step-detail[data-step="7"] h3').textContent()).toContain('refund#0');
    expect(await page.locator('tr#step-7 .approved-by').textContent()).toContain('approved at step 6');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it('compares the answer with the fork that rejects: the first divergence is a person who said otherwise', async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/compare?a=${APPROVED}&b=${REJECTED}`);
    const verdict = page.locator('p.verdict');
    expect(await verdict.textContent()).toMatch(
      /step 6,\s+approval#0,\s+a person answered otherwise: ✓ approved → ✗ rejected/,
    );
    expect(await page.locator('tr[data-first-divergence]').getAttribute('data-step')).toBe('6');
    await screenshot(page, 'approval-compare');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it('shows the answer in a report file, read from file:// with no request made', async () => {
    const out = join(folder.path, 'approved.html');
    const report = await forkpoint(['report', APPROVED, '--compare', REJECTED, '-o', out, '--db', db]);
    expect(report.exit).toBe(0);
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(pathToFileURL(out).href);
      const answer = page.locator(`#run-${APPROVED}-step-6-detail section.answer-detail`);
      expect(await answer.locator('dd.reviewer').textContent()).toBe(REVIEWER);
      expect(await page.locator('[data-approval-divergence]').count()).toBe(1);
      expectOnlyLocalRequests(browser.requests);
    } finally {
      await browser.close();
    }
  });
});
