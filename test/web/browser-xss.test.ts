import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';
import { describeBrowser, openBrowser, screenshot, type BrowserSession } from '../support/chromium.js';
import { INCIDENT, makeDemoStore, type DemoStore } from '../support/demo-store.js';
import { forkpoint, startUi, type UiServer } from '../support/forkpoint-process.js';
import { unfoldTo } from '../support/folds.js';
import { expectOnlyLocalRequests } from '../support/request-guard.js';

// A tool result is untrusted text: this one is markup that would run two ways were it ever put in a page as HTML.
const PAYLOAD = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
// As a page shows it: a JSON string, whose quotes come out escaped, so the part before them is what to look for.
const SHOWN = '<script>window.__xss=1</script><img src=x onerror=';
const XSS_RUN = '00000000a5c1';
// A person's answer is untrusted text too: a reviewer whose name is markup, and a note that is the payload.
const REVIEWER = '<img src=x onerror="window.__xss=3">';
const ANSWERED = '00000000a5c2';

/** A refund the supervised build stopped for, answered by {@link REVIEWER} with the payload as the note, in `db`. */
async function writeAnswer(db: string): Promise<void> {
  const store = sqliteStore({ path: db });
  try {
    const engine = createEngine({ store });
    const supervised = refundBuild('supervised');
    const desk = createRefundDesk();
    const input = { orderId: 'ORD-1' };
    await engine.record({ agent: supervised, world: desk.world, input, runId: ANSWERED, tier: 'synthetic' });
    await engine.approve({ runId: ANSWERED, agent: supervised, world: desk.world, by: REVIEWER, note: PAYLOAD });
  } finally {
    await store.close();
  }
}

let folder: ReturnType<typeof tempFolder>;
let demo: DemoStore;
let ui: UiServer;
let session: BrowserSession;
const undo: (() => unknown)[] = [];

describeBrowser('forkpoint ui and report in Chromium: a payload of markup stays text', () => {
  beforeAll(async () => {
    folder = tempFolder('forkpoint-browser-xss-');
    undo.push(() => {
      folder.cleanup();
    });
    demo = await makeDemoStore(folder.path);
    // The incident forked at step 4 with the OCR text replaced by the markup: it flows on into later requests.
    const fork = await forkpoint([
      'fork',
      INCIDENT,
      '--at-step',
      '4',
      '--tool-merge',
      JSON.stringify({ text: PAYLOAD }),
      '--side-effects',
      'estimate_repair=simulate',
      '--run-id',
      XSS_RUN,
      '--seed',
      '7',
      '--db',
      demo.db,
    ]);
    expect(fork.stdout).toContain(`fork · run ${XSS_RUN}`);
    await writeAnswer(demo.db);
    ui = await startUi(demo.db);
    undo.push(() => ui.stop());
    session = await openBrowser();
    undo.push(() => session.close());
  }, 60_000);
  afterAll(async () => {
    for (const step of undo.reverse()) await step();
  });

  it("shows the markup on the run's page and in its step 4 as text, and runs none of it", async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/runs/${XSS_RUN}`);
    expect(await page.locator('h1').textContent()).toContain(XSS_RUN);
    await expectInert(page);

    await page.goto(`${ui.origin}/runs/${XSS_RUN}?step=4#step-4`);
    const detail = page.locator('section#step-detail[data-step="4"]');
    await expectShownAsText(detail.locator(':scope > details.step-response'));
    await expectInert(page);
    await screenshot(page, 'xss-step');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it("shows a reviewer's name and note of markup as text, in the approval's row and its opened answer", async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/runs/${ANSWERED}?step=6#step-6`);
    const row = page.locator('tr#step-6 span.answer');
    expect(await row.locator('.reviewer').textContent()).toBe(REVIEWER);
    expect(await row.locator('q.note').textContent()).toBe(PAYLOAD);
    const answer = page.locator('section#step-detail[data-step="6"] section.answer-detail');
    expect(await answer.locator('dd.reviewer').textContent()).toBe(REVIEWER);
    expect(await answer.locator('q.note').isVisible()).toBe(true);
    expect(await answer.locator('q.note').textContent()).toBe(PAYLOAD);
    await expectInert(page);
    await screenshot(page, 'xss-answer');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it('shows the markup in a report of the run as text, and runs none of it', async () => {
    const out = join(folder.path, 'xss-report.html');
    const report = await forkpoint(['report', XSS_RUN, '--compare', INCIDENT, '-o', out, '--db', demo.db]);
    expect(report.exit).toBe(0);
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(pathToFileURL(out).href);
      expect(await page.locator('h1', { hasText: XSS_RUN }).count()).toBeGreaterThan(0);
      const step4 = page.locator(`[data-run-id="${XSS_RUN}"] section.step-detail[data-step="4"]`);
      await expectShownAsText(step4.locator(':scope > details.step-response'));
      await expectInert(page);
      await screenshot(page, 'xss-report');
      expectOnlyLocalRequests(browser.requests);
    } finally {
      await browser.close();
    }
  });
});

/** Neither half of the payload ran, and neither became an element. */
async function expectInert(page: Page): Promise<void> {
  expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator('script', { hasText: '__xss' }).count()).toBe(0);
}

/** The payload's text, shown in the fold `where` once opened to it, is there to read. */
async function expectShownAsText(where: Locator): Promise<void> {
  const text = await unfoldTo(where, SHOWN);
  expect(await text.isVisible()).toBe(true);
  expect(await text.textContent()).toContain(SHOWN);
}
