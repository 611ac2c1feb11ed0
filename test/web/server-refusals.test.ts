import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SCRIPT, PAGE_STYLE } from '../../src/web/assets/index.js';
import { tempFolder } from '../support/cli-harness.js';
import type { HttpAnswer, HttpRequestOptions } from '../support/http-get.js';
import { httpRequest } from '../support/http-get.js';
import type { TestUi } from '../support/ui-over-store.js';
import { startTestUi } from '../support/ui-over-store.js';
import { INCIDENT_ID, writeIncident } from '../support/web-demo.js';

const folder = tempFolder('forkpoint-ui-refusals-');
const db = join(folder.path, 'incident.db');
let ui: TestUi;
const answers: [string, HttpAnswer][] = [];
beforeAll(async () => {
  await writeIncident(db);
  ui = await startTestUi(db);
});
afterAll(async () => {
  await ui.close();
  folder.cleanup();
});

/** One request; every answer is kept, for the check of the headers every answer carries. */
async function ask(path: string, options: HttpRequestOptions = {}): Promise<HttpAnswer> {
  const answer = await httpRequest(ui.server.url, path, options);
  answers.push([`${options.method ?? 'GET'} ${path}`, answer]);
  return answer;
}

/** The page's error code and status, and that it says them without a stack trace. */
async function refusal(path: string, options: HttpRequestOptions = {}): Promise<{ status: number; code: string }> {
  const answer = await ask(path, options);
  expect(answer.body, path).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
  if (path.startsWith('/api/')) {
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(document.error.message.length, path).toBeGreaterThan(10);
    return { status: answer.status, code: document.error.code };
  }
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  const code = /<section class="error-page" data-error-code="([A-Z_]+)">/.exec(answer.body)?.[1] ?? '(none)';
  expect(answer.body).toContain(`<span class="code">${code}</span>: `);
  return { status: answer.status, code };
}

describe('what the view refuses, each with a code and a status', () => {
  it.each([
    ['/runs/deadbeef'],
    ['/api/runs/deadbeef'],
    ['/api/runs/deadbeef/tree'],
    ['/api/runs/deadbeef0000/checkpoints/1'],
    [`/compare?a=${INCIDENT_ID}&b=deadbeef`],
    [`/api/compare?a=deadbeef&b=${INCIDENT_ID}`],
    ['/runs?before=deadbeef'],
  ])('an unknown run, %s: 404 RUN_NOT_FOUND', async (path) => {
    expect(await refusal(path)).toEqual({ status: 404, code: 'RUN_NOT_FOUND' });
  });

  it.each([
    ['/runs/xyz'],
    ['/runs/9B40C1D5'],
    ['/api/runs/9b40c1d'],
    ['/api/runs/..%2f..%2fetc/tree'],
    ['/compare?a=9b40c1d5'],
    ['/compare?a=9b40c1d5&b=%3Cscript%3E'],
    ['/runs/%E0%A4%A'],
  ])('a malformed run id or path, %s: 400 USAGE', async (path) => {
    expect(await refusal(path)).toEqual({ status: 400, code: 'USAGE' });
  });

  it.each([
    ['/runs?mode=sideways'],
    ['/runs?limit=0'],
    ['/runs?since=yesterday'],
    ['/runs/9b40c1d5?step=0'],
    ['/runs/9b40c1d5?step=four'],
  ])('a malformed query, %s: 400 USAGE', async (path) => {
    expect(await refusal(path)).toEqual({ status: 400, code: 'USAGE' });
  });

  it.each([
    ['/runs/9b40c1d5?step=10'],
    ['/api/runs/9b40c1d5/checkpoints/10'],
    ['/api/runs/9b40c1d5/checkpoints/99999999999999999999'],
  ])('a step past the last, %s: 404 STEP_OUT_OF_RANGE', async (path) => {
    expect(await refusal(path)).toEqual({ status: 404, code: 'STEP_OUT_OF_RANGE' });
  });

  it.each([
    ['/nothing-here'],
    ['/runs/9b40c1d5/'],
    ['/api/nothing'],
    ['/assets/../package.json'],
    ['/assets/%2e%2e/package.json'],
    ['/assets/%2e%2e%2fpackage.json'],
    ['/assets/..%2f..%2fpackage.json'],
    ['/assets%2fforkpoint.css'],
    ['/assets/forkpoint.css/'],
    ['/assets/forkpoint.css%00'],
    ['/assets/FORKPOINT.CSS'],
    ['/assets/page-style.ts'],
    ['/assets/'],
    ['/assets/%5c..%5cpackage.json'],
    ['/dist/src/web/index.js'],
  ])('a path that names no page or asset, %s: 404 PAGE_NOT_FOUND', async (path) => {
    expect(await refusal(path)).toEqual({ status: 404, code: 'PAGE_NOT_FOUND' });
  });

  it.each([['POST'], ['PUT'], ['DELETE'], ['PATCH']])('%s: 405, with Allow: GET, HEAD', async (method) => {
    for (const path of ['/runs', `/api/runs/${INCIDENT_ID}`]) {
      const before = (await ask(`/api/runs/${INCIDENT_ID}`)).body;
      const answer = await ask(path, {
        method,
        body: '{"status":"completed"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect((await ask(`/api/runs/${INCIDENT_ID}`)).body).toBe(before);
    }
  });

  it.each([
    ['evil.example'],
    ['evil.example:80'],
    ['127.0.0.1.evil.example'],
    ['localhost.evil.example'],
    ['10.0.0.1'],
    ['[::ffff:7f00:1]'],
  ])('a Host header of %s (DNS rebinding): refused, HOST_REFUSED', async (host) => {
    for (const path of ['/runs', `/api/runs/${INCIDENT_ID}`, '/assets/forkpoint.css']) {
      const answer = await ask(path, { headers: { host } });
      expect(answer.status, `${host} ${path}`).toBe(400);
      expect(answer.body).toContain('HOST_REFUSED');
      expect(answer.body).not.toContain('CLM-91077');
    }
  });

  it.each([['localhost'], ['127.0.0.1'], ['127.0.0.2'], ['[::1]'], ['LOCALHOST']])(
    'a Host header of %s: answered',
    async (host) => {
      const port = new URL(ui.server.url).port;
      const answer = await ask('/runs', { headers: { host: `${host}:${port}` } });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`data-run-id="${INCIDENT_ID}"`);
    },
  );
});

describe('what the view serves besides pages', () => {
  it('its two assets, exactly, with their types', async () => {
    const style = await ask('/assets/forkpoint.css');
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.body).toBe(PAGE_STYLE);
    const script = await ask('/assets/forkpoint.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(PAGE_SCRIPT);
  });

  it('HEAD: the status and headers of GET, no body', async () => {
    const got = await ask(`/runs/${INCIDENT_ID}`);
    const head = await ask(`/runs/${INCIDENT_ID}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(got.body)));
  });
});

// Last: every answer above, whatever its status, carried the headers.
describe('every answer', () => {
  it('carries the content security policy, nosniff and no-store', () => {
    expect(answers.length).toBeGreaterThan(60);
    for (const [request, answer] of answers) {
      expect(answer.headers['content-security-policy'], request).toMatch(/^default-src 'none'; /);
      expect(answer.headers['content-security-policy'], request).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options'], request).toBe('nosniff');
      expect(answer.headers['cache-control'], request).toBe('no-store');
      expect(answer.headers['x-frame-options'], request).toBe('DENY');
    }
  });
});
