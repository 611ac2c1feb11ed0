import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { httpRequest } from '../support/http-get.js';
import { BIN, INCIDENT_ID, writeIncident } from '../support/web-demo.js';

const folder = tempFolder('forkpoint-ui-cli-');
const db = join(folder.path, 'incident.db');
beforeAll(async () => {
  await writeIncident(db);
});
afterAll(() => {
  folder.cleanup();
});

interface Served {
  /** The URL of the view's first line, once printed. */
  readonly firstLine: Promise<string>;
  /** How the process ended, and all it wrote. */
  readonly ended: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
  stop(): void;
}

/** `node bin/forkpoint.js ARGS` as a child process that serves until stopped. */
function serve(args: readonly string[]): Served {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  let seen: (line: string) => void = () => undefined;
  const firstLine = new Promise<string>((resolve) => (seen = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('\n')) seen(stdout.split('\n')[0] ?? '');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const ended = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      seen(stdout.split('\n')[0] ?? '');
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { firstLine, ended, stop: () => child.kill('SIGTERM') };
}

async function takenPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    release: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

describe('forkpoint ui', () => {
  it('prints its URL first, answers pages there, and exits 0 on SIGTERM, leaving the database as it was', async () => {
    const before = createHash('sha256').update(readFileSync(db)).digest('hex');
    const ui = serve(['ui', '--port', '0', '--db', db]);
    const line = await ui.firstLine;
    expect(line).toMatch(/^forkpoint ui: http:\/\/127\.0\.0\.1:\d+\/ · .*incident\.db · read-only; Ctrl-C stops it$/);
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(line)?.[0] ?? '';
    expect(url).not.toMatch(/:0\/$/);
    const page = await httpRequest(url, `/runs/${INCIDENT_ID}?step=4`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('DOC-77120: damage_area_cm2 205 @ 0.38');
    expect((await httpRequest(url, '/runs/deadbeef')).status).toBe(404);
    ui.stop();
    const ended = await ui.ended;
    expect(ended.stderr).toBe('');
    expect(ended.code).toBe(0);
    expect(ended.stdout.trimEnd().split('\n')).toEqual([line]);
    expect(createHash('sha256').update(readFileSync(db)).digest('hex')).toBe(before);
    expect(existsSync(`${db}-wal`) && readFileSync(`${db}-wal`).length > 0).toBe(false);
  });

  it('on a port in use: exit 2, one line, PORT_IN_USE', async () => {
    const taken = await takenPort();
    try {
      const ended = await serve(['ui', '--port', String(taken.port), '--db', db]).ended;
      expect(ended.code).toBe(2);
      expect(ended.stdout).toBe('');
      expect(ended.stderr).toMatch(
        new RegExp(`^forkpoint: PORT_IN_USE: port ${taken.port} on 127\\.0\\.0\\.1 is in use[^\\n]*\\n$`),
      );
    } finally {
      await taken.release();
    }
  });

  it.each([['0.0.0.0'], ['192.168.1.10']])('--host %s: exit 2, one line, HOST_REFUSED', async (host) => {
    const ended = await serve(['ui', '--port', '0', '--host', host, '--db', db]).ended;
    expect(ended.code).toBe(2);
    expect(ended.stdout).toBe('');
    expect(ended.stderr).toMatch(/^forkpoint: HOST_REFUSED: the view listens on loopback only [^\n]*--allow-remote\n$/);
  });

  it('without a database: exit 2, one line, and no file made', async () => {
    const missing = join(folder.path, 'none.db');
    const ended = await serve(['ui', '--port', '0', '--db', missing]).ended;
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(
      /^forkpoint: RUN_NOT_FOUND: nothing to show: there is no database at [^\n]*none\.db yet[^\n]*\n$/,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it('--port out of range: exit 2, USAGE', async () => {
    const ended = await serve(['ui', '--port', '70000', '--db', db]).ended;
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/^forkpoint: USAGE: [^\n]*--port[^\n]*\n$/);
  });
});
