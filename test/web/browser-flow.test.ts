import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { describeBrowser, openBrowser, screenshot, VIEWPORT, type BrowserSession } from '../support/chromium.js';
import { INCIDENT, makeDemoStore, type DemoStore } from '../support/demo-store.js';
import { forkpoint, startUi, type UiServer } from '../support/forkpoint-process.js';
import { unfoldTo } from '../support/folds.js';
import { expectOnlyLocalRequests } from '../support/request-guard.js';

// The story `npm start` tells, looked at instead of read: `forkpoint ui` on the demo's database, in Chromium.
let folder: ReturnType<typeof tempFolder>;
let demo: DemoStore;
let ui: UiServer;
let session: BrowserSession;
// What beforeAll made, undone in reverse order: whatever it got to before a failure.
const undo: (() => unknown)[] = [];

describeBrowser('forkpoint ui and report in Chromium: the demo incident and its fork', () => {
  beforeAll(async () => {
    folder = tempFolder('forkpoint-browser-flow-');
    undo.push(() => {
      folder.cleanup();
    });
    demo = await makeDemoStore(folder.path);
    ui = await startUi(demo.db);
    undo.push(() => ui.stop());
    session = await openBrowser();
    undo.push(() => session.close());
  }, 60_000);
  afterAll(async () => {
    for (const step of undo.reverse()) await step();
  });

  it('sends / to the runs page, where filters find the incident and its fork, each linking to its page', async () => {
    const { page } = session;
    await page.goto(ui.url);
    expect(new URL(page.url()).pathname).toBe('/runs');
    // The demo's eval runs are its newest and fill the first page: the incident is found as a reader would, by filter.
    expect(await page.locator(`table.runs tr[data-run-id="${INCIDENT}"]`).count()).toBe(0);
    // Above them, the landing page points to the story: the run the newest forks and replays came from.
    expect(await page.locator(`section.lineages a[data-run-link="${INCIDENT}"]`).isVisible()).toBe(true);
    await page.locator('form.filters select[name="mode"]').selectOption('record');
    await page.locator('form.filters select[name="status"]').selectOption('failed');
    await page.locator('form.filters button').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
    await expectRunRow(page, INCIDENT);
    await page.locator(`table.runs tr[data-run-id="${INCIDENT}"]`).scrollIntoViewIfNeeded();
    await screenshot(page, 'runs');
    await page.goto(`${ui.origin}/runs?mode=fork`);
    await expectRunRow(page, demo.forkId);
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it('clicks into the incident, opens step 4 with its request, response and checkpoint, and goes on to the fork', async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/runs?status=failed`);
    await page.locator(`table.runs tr[data-run-id="${INCIDENT}"] a[href="/runs/${INCIDENT}"]`).click();
    await page.waitForURL(`${ui.origin}/runs/${INCIDENT}`);
    const heading = await page.locator('h1').textContent();
    expect(heading).toContain(INCIDENT);
    expect(heading).toContain('record');

    await page.locator('[data-step="4"] a', { hasText: 'ocr_document#0' }).click();
    await page.waitForURL(`${ui.origin}/runs/${INCIDENT}?step=4#step-4`);
    const detail = page.locator('section#step-detail[data-step="4"]');
    expect(await detail.isVisible()).toBe(true);
    const folds = detail.locator(':scope > details > summary');
    expect((await folds.allTextContents()).map((text) => text.trim())).toEqual([
      'request',
      'response',
      'checkpoint after step 4',
    ]);
    // What OCR v1 read off the folded form: 205, at confidence 0.38.
    const response = detail.locator(':scope > details.step-response');
    expect(await response.getAttribute('open')).not.toBeNull();
    expect(await (await unfoldTo(response, '205', { exact: true })).isVisible()).toBe(true);
    await screenshot(page, 'run');

    const toFork = page.locator(`nav.lineage a[data-run-link="${demo.forkId}"]`);
    expect(await toFork.textContent()).toContain('fork');
    await toFork.click();
    await page.waitForURL(`${ui.origin}/runs/${demo.forkId}`);
    const forkHeading = await page.locator('h1').textContent();
    expect(forkHeading).toContain(demo.forkId);
    expect(forkHeading).toContain('fork');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it("opens the compare view from the fork's page: the first divergence is step 4, marked and in view, failed -> completed", async () => {
    const { page } = session;
    // A viewport too short to show step 4's row unscrolled: it is in view only if the page scrolled to it.
    await page.setViewportSize({ width: VIEWPORT.width, height: 360 });
    try {
      await page.goto(`${ui.origin}/runs/${demo.forkId}`);
      await page.locator('a[data-compare]').click();
      await page.waitForURL(`${ui.origin}/compare?a=${INCIDENT}&b=${demo.forkId}`);
      const marked = page.locator('tr[data-first-divergence]');
      expect(await marked.count()).toBe(1);
      expect(await marked.getAttribute('data-step')).toBe('4');
      expect(await marked.textContent()).toMatch(/first divergence/i);
      expect(await inViewport(session, 'tr[data-first-divergence]')).toBe(true);
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
    expect(await page.locator('[data-outcome="a"]').textContent()).toContain('failed');
    expect(await page.locator('[data-outcome="b"]').textContent()).toContain('completed');
    // The top of the page, as docs/compare.png shows it: the verdict, both outcomes, and step 4 below them.
    // An empty fragment scrolls a page to its very top (HTML, "scroll to the fragment").
    await page.goto(`${page.url()}#`);
    expect(await inViewport(session, 'h1')).toBe(true);
    expect(await inViewport(session, 'tr[data-first-divergence]')).toBe(true);
    await screenshot(page, 'compare');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it("goes from the incident's page to the runs like it, then to the failed classes, where a fix was verified against it", async () => {
    const { page } = session;
    await page.goto(`${ui.origin}/runs/${INCIDENT}`);
    await page.locator('a[data-similar]').click();
    await page.waitForURL(`${ui.origin}/runs/${INCIDENT}/similar`);
    expect(await page.locator('h1').textContent()).toContain(INCIDENT);
    // The demo's two weeks of claims hold more runs of the incident's class: the page counts them.
    const same = page.locator('dd[data-same]');
    expect(Number(await same.getAttribute('data-same'))).toBeGreaterThan(1);
    expect(await same.textContent()).toMatch(/^\d+ runs of \d+ recorded in the store/);
    expect(await page.locator('p[data-same-path]').isVisible()).toBe(true);
    await screenshot(page, 'similar');
    await page.locator('nav.top-nav a', { hasText: 'classes' }).click();
    await page.waitForURL(`${ui.origin}/classes`);
    await page.locator('form.filters select[name="status"]').selectOption('failed');
    await page.locator('form.filters button').click();
    await page.waitForURL((url) => url.pathname === '/classes' && url.searchParams.get('status') === 'failed');
    const rows = page.locator('table.classes tbody tr');
    expect(await rows.count()).toBeGreaterThan(1);
    const fixed = page.locator('table.classes tr', { has: page.locator('[data-verified]') });
    expect(await fixed.count()).toBe(1);
    expect(await fixed.locator(`a[data-run-link="${INCIDENT}"]`).count()).toBeGreaterThan(0);
    await screenshot(page, 'classes');
    expectOnlyLocalRequests(session.requests, ui.origin);
  });

  it('writes a report of the incident with its compare, which shows both from file:// and asks for nothing', async () => {
    const out = join(folder.path, 'report.html');
    const report = await forkpoint(['report', INCIDENT, '--compare', demo.forkId, '-o', out, '--db', demo.db]);
    expect(report.exit).toBe(0);
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(pathToFileURL(out).href);
      const run = page.locator(`article[data-run-id="${INCIDENT}"]`);
      const heading = await run.locator('h1').textContent();
      expect(heading).toContain(INCIDENT);
      expect(heading).toContain('record');
      const step4 = run.locator('section.step-detail[data-step="4"] > details.step-response');
      expect(await (await unfoldTo(step4, '205', { exact: true })).isVisible()).toBe(true);
      const marked = page.locator('tr[data-first-divergence]');
      expect(await marked.count()).toBe(1);
      expect(await marked.getAttribute('data-step')).toBe('4');
      expect(await marked.textContent()).toMatch(/first divergence/i);
      expect(await page.locator('[data-outcome="a"]').textContent()).toContain('failed');
      expect(await page.locator('[data-outcome="b"]').textContent()).toContain('completed');
      await screenshot(page, 'report');
      expect(browser.requests.urls).toContain(pathToFileURL(out).href);
      expectOnlyLocalRequests(browser.requests);
    } finally {
      await browser.close();
    }
  });
});

/** The runs page shows one row for `runId`, whose run id cell links to the run's page. */
async function expectRunRow(page: Page, runId: string): Promise<void> {
  const row = page.locator(`table.runs tr[data-run-id="${runId}"]`);
  expect(await row.count()).toBe(1);
  expect(await row.locator(`a[href="/runs/${runId}"]`).textContent()).toContain(runId);
}

/** Whether the element `selector` names lies, top to bottom, inside the page's viewport as it is scrolled now. */
async function inViewport(browser: BrowserSession, selector: string): Promise<boolean> {
  const box = await browser.page.locator(selector).boundingBox();
  const size = browser.page.viewportSize();
  if (box === null || size === null) return false;
  return box.y >= 0 && box.y + box.height <= size.height;
}
