import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { guardRequests, type RequestLog } from './request-guard.js';

/** Debian's Chromium, the browser the web view is tested in (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/** The viewport of every page, and so of every screenshot (docs/compare.png among them). */
export const VIEWPORT = { width: 1280, height: 800 } as const;

// The flags this machine needs: no sandbox or GPU in a container, and nothing of the browser's own that calls home.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // No name resolves: were a request to get past the guard's routes (the browser's own, say), it still goes nowhere.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

const said = new Set<string>();

/**
 * `describe(name, body)` when Chromium is installed. Without it, CI fails
 * (`.ci/run` should have installed it); anywhere else the tests are skipped,
 * and stderr says so once, with how to install it.
 */
export function describeBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
  } else if (process.env.CI !== undefined && process.env.CI !== '') {
    describe(name, () => {
      it('has Chromium', () => {
        throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (apt-get install chromium)`);
      });
    });
  } else {
    if (!said.has(name)) {
      said.add(name);
      process.stderr.write(
        `skipped ${name}: Chromium is missing (${CHROMIUM}); install it with apt-get install chromium\n`,
      );
    }
    describe.skip(name, body);
  }
}

/** A headless Chromium with a profile of its own, one page open, and every request its pages make on record. */
export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly requests: RequestLog;
  /** The profile folder (`--user-data-dir`), removed by {@link BrowserSession.close}. */
  readonly profile: string;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/**
 * Launches {@link CHROMIUM} on a fresh `--user-data-dir` from mkdtemp.
 * playwright-core refuses that flag in `launch()`'s args (it owns the profile
 * there, and says to use `launchPersistentContext`): the persistent context is
 * the way to choose the folder, and the folder is removed on close.
 */
export async function openBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'forkpoint-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: VIEWPORT,
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  // A missing element fails its test with Playwright's own message, well before vitest's timeout.
  context.setDefaultTimeout(10_000);
  const requests = await guardRequests(context);
  // A persistent context starts with one blank page: the session's page.
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    requests,
    profile,
    close: async () => {
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/** Where screenshots go: test artefacts, ignored by git, for a person to look at. */
export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-artifacts/screenshots');

/** Saves what `page` shows (the viewport) as `test-artifacts/screenshots/NAME.png`, and returns that path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
