import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWordsFor } from '../../src/cli/run-words.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { startUiServer } from '../../src/web/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { crawlView } from '../support/crawl.js';
import { httpRequest } from '../support/http-get.js';
import { rejectionCode } from '../support/thrown.js';
import { startTestUi } from '../support/ui-over-store.js';
import { buildDemo, INCIDENT_ID, writeIncident } from '../support/web-demo.js';

const folder = tempFolder('forkpoint-ui-store-');
const demo = join(folder.path, 'demo.db');
const incident = join(folder.path, 'incident.db');
let forkId: string;
beforeAll(async () => {
  forkId = buildDemo(demo).forkId;
  await writeIncident(incident);
});
afterAll(() => {
  folder.cleanup();
});

const digest = (path: string): string | null =>
  existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : null;

describe('the view only reads', () => {
  it('leaves the database and its -wal byte for byte as they were after a crawl of every page', async () => {
    const before = { db: digest(demo), wal: digest(`${demo}-wal`) };
    const ui = await startTestUi(demo);
    const crawl = await crawlView(ui.server.url, ['/', `/compare?a=${INCIDENT_ID}&b=${forkId}`]);
    await ui.close();
    const paths = [...crawl.keys()];
    // Every run's page, every step of every run opened, the runs' pages of runs, the JSON of each.
    expect(paths.filter((path) => /^\/runs\/[0-9a-f]+$/.test(path)).length).toBeGreaterThan(60);
    expect(paths.filter((path) => /^\/runs\/[0-9a-f]+\?step=\d+$/.test(path)).length).toBeGreaterThan(500);
    expect(paths.filter((path) => path.startsWith('/compare?')).length).toBeGreaterThan(5);
    expect(paths.filter((path) => path.startsWith('/api/')).length).toBeGreaterThan(60);
    expect(paths).toContain('/runs?before=' + (/before=([0-9a-f]+)/.exec(paths.join(' '))?.[1] ?? 'none'));
    const failed = [...crawl].filter(([, answer]) => answer.status !== 200 && answer.status !== 302);
    expect(failed.map(([path, answer]) => `${path} ${answer.status}`)).toEqual([]);
    expect(ui.internalErrors).toEqual([]);
    expect({ db: digest(demo), wal: digest(`${demo}-wal`) }).toEqual(before);
    // A thousand pages and more: a generous bound for a slow machine, not a measure of speed.
  }, 180_000);
});

describe('a store that goes bad while the view runs', () => {
  it('a file overwritten with other bytes: every page and document says STORE_CORRUPT (503), never a 500', async () => {
    const copy = join(folder.path, 'overwritten.db');
    copyFileSync(incident, copy);
    const ui = await startTestUi(copy);
    expect((await httpRequest(ui.server.url, `/runs/${INCIDENT_ID}`)).status).toBe(200);
    writeFileSync(copy, Buffer.alloc(readFileSync(copy).length, 0x41));
    for (const path of [
      '/runs',
      `/runs/${INCIDENT_ID}?step=4`,
      `/api/runs/${INCIDENT_ID}`,
      `/api/runs/${INCIDENT_ID}/tree`,
    ]) {
      const answer = await httpRequest(ui.server.url, path);
      expect(answer.status, path).toBe(503);
      expect(answer.body, path).toMatch(/STORE_CORRUPT[^\n]*is not a readable forkpoint database/);
      expect(answer.body).not.toMatch(/\n\s+at /);
    }
    expect(ui.internalErrors).toEqual([]);
    await ui.close();
  });

  it('a file emptied: STORE_CORRUPT on the page, in words', async () => {
    const copy = join(folder.path, 'emptied.db');
    copyFileSync(incident, copy);
    const ui = await startTestUi(copy);
    writeFileSync(copy, '');
    const answer = await httpRequest(ui.server.url, `/runs/${INCIDENT_ID}`);
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('<section class="error-page" data-error-code="STORE_CORRUPT">');
    expect(answer.body).toContain('<h1>cannot show this page</h1>');
    expect(ui.internalErrors).toEqual([]);
    await ui.close();
  });

  // On POSIX, removing a file that is open leaves it readable through the open handle: the view goes on.
  it('a file deleted: the view goes on showing what the open file holds', async () => {
    const copy = join(folder.path, 'deleted.db');
    copyFileSync(incident, copy);
    const ui = await startTestUi(copy);
    rmSync(copy);
    const answer = await httpRequest(ui.server.url, `/runs/${INCIDENT_ID}?step=4`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('DOC-77120');
    expect(existsSync(copy)).toBe(false);
    await ui.close();
  });
});

describe('where the view listens', () => {
  const options = () => ({
    engine: createEngine({ store: sqliteStore({ path: ':memory:' }) }),
    words: runWordsFor,
    port: 0,
  });

  it.each([['0.0.0.0'], ['::'], ['192.168.1.10']])('refuses %s without allowRemote: HOST_REFUSED', async (host) => {
    expect(await rejectionCode(() => startUiServer({ ...options(), host }))).toBe('HOST_REFUSED');
  });

  it.each([['127.0.0.1'], ['localhost'], ['::1']])('listens on %s', async (host) => {
    const server = await startUiServer({ ...options(), host });
    expect(server.url).toMatch(/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/$/);
    const answer = await httpRequest(server.url, '/runs');
    await server.close();
    expect(answer.status).toBe(200);
  });

  it('listens on 0.0.0.0 when asked by name with allowRemote', async () => {
    const server = await startUiServer({ ...options(), host: '0.0.0.0', allowRemote: true });
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
    await server.close();
  });

  it('a port in use: PORT_IN_USE, naming the port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      let message = '';
      const code = await rejectionCode(async () => {
        try {
          await startUiServer({ ...options(), port });
        } catch (error) {
          message = (error as Error).message;
          throw error;
        }
      });
      expect(code).toBe('PORT_IN_USE');
      expect(message).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
