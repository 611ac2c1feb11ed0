import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { describeBrowser, openBrowser, screenshot, VIEWPORT, type BrowserSession } from '../support/chromium.js';
import { expectOnlyLocalRequests } from '../support/request-guard.js';

// The test support on its own, before any page of forkpoint's: a tiny server, a file, and a page that tries to leave.
const FOREIGN_FETCH = 'https://cdn.example.com/lib.js';
const FOREIGN_SOCKET = 'ws://192.0.2.1/feed';
const PAGES: Record<string, string> = {
  '/': '<title>smoke</title><h1>served by the test</h1><img src="/pixel.svg" alt="">',
  '/leaves': `<title>leaves</title><script>
    fetch(${JSON.stringify(FOREIGN_FETCH)}).then(() => { document.title = 'fetched'; }, () => { document.title = 'refused'; });
    new WebSocket(${JSON.stringify(FOREIGN_SOCKET)});
  </script>`,
  '/scripted': '<title>static</title><script>document.title = "scripted";</script>',
  '/pixel.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
};

let server: Server;
let origin: string;
let session: BrowserSession;
let folder: ReturnType<typeof tempFolder>;

describeBrowser('the browser test support', () => {
  beforeAll(async () => {
    folder = tempFolder('forkpoint-browser-support-');
    server = createServer((request, response) => {
      const body = PAGES[request.url ?? ''];
      response.writeHead(body === undefined ? 404 : 200, {
        'content-type': request.url?.endsWith('.svg') === true ? 'image/svg+xml' : 'text/html',
      });
      response.end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    session = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await session.close();
    await new Promise((resolve) => server.close(resolve));
    folder.cleanup();
  });

  it("opens the test server's page in Chromium and records each request, all of them local", async () => {
    await session.page.goto(`${origin}/`);
    expect(await session.page.locator('h1').textContent()).toBe('served by the test');
    expect(session.requests.urls).toEqual([`${origin}/`, `${origin}/pixel.svg`]);
    expectOnlyLocalRequests(session.requests, origin);
  });

  it('opens a file from file:// as local', async () => {
    const file = join(folder.path, 'page.html');
    writeFileSync(file, '<p id="from-file">a file</p>');
    await session.page.goto(`file://${file}`);
    expect(await session.page.locator('#from-file').textContent()).toBe('a file');
    expectOnlyLocalRequests(session.requests, origin);
  });

  it('stops a request or a socket to anywhere else before it goes out, and the guard names both', async () => {
    await session.page.goto(`${origin}/leaves`);
    await expect.poll(() => session.page.title()).toBe('refused');
    await expect.poll(() => session.requests.urls.includes(FOREIGN_SOCKET)).toBe(true);
    // The two leave in either order: the message names each.
    for (const url of [FOREIGN_FETCH, FOREIGN_SOCKET]) {
      expect(() => {
        expectOnlyLocalRequests(session.requests, origin);
      }).toThrow(url);
    }
    // Another server on loopback is not the test's own.
    expect(() => {
      expectOnlyLocalRequests({ urls: [`${origin}/`] }, 'http://127.0.0.1:9');
    }).toThrow();
  });

  it('saves a screenshot of the viewport as a PNG under test-artifacts/screenshots/', async () => {
    await session.page.goto(`${origin}/`);
    const path = await screenshot(session.page, 'support-smoke');
    expect(path).toMatch(/test-artifacts\/screenshots\/support-smoke\.png$/);
    const png = readFileSync(path);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([VIEWPORT.width, VIEWPORT.height]);
  });

  it('runs a page without JavaScript when asked, and removes its profile on close', async () => {
    const quiet = await openBrowser({ javaScriptEnabled: false });
    try {
      expect(existsSync(quiet.profile)).toBe(true);
      await quiet.page.goto(`${origin}/scripted`);
      expect(await quiet.page.title()).toBe('static');
    } finally {
      await quiet.close();
    }
    expect(existsSync(quiet.profile)).toBe(false);
    await session.page.goto(`${origin}/scripted`);
    expect(await session.page.title()).toBe('scripted');
  });
});
