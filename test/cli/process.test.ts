import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { committedSteps } from '../support/committed-steps.js';

// These run the compiled CLI as users do (`npm test` builds it first).
const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-process-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

describe('the forkpoint process', () => {
  it('records the incident through bin/forkpoint.js', () => {
    const result = spawnSync(
      process.execPath,
      [
        BIN,
        'record',
        'scenarios/claims-triage',
        '--claim',
        'CLM-91077',
        '--at',
        '2026-03-04',
        '--run-id',
        '9b40c1d5',
        '--json',
        '--db',
        db,
      ],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      mode: 'record',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', step: 9 },
    });
  });

  it('answers bad input with one line on stderr and exit 2, never a stack trace', () => {
    const result = spawnSync(
      process.execPath,
      [BIN, 'record', 'scenarios/claims-triage', '--claim', 'CLM-00000', '--at', '2026-03-04', '--db', db],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^forkpoint: INPUT_INVALID: unknown claim CLM-00000/);
  });

  it('ends quietly when its reader has already closed the pipe (`forkpoint --help | head -1`)', async () => {
    const child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Our end of its stdout closed before it writes: every write it makes meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        resolve(code);
      }),
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });

  it('leaves every completed step readable, and the run interrupted, when killed with SIGKILL mid-run', async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'record',
        'scenarios/claims-triage',
        '--claim',
        'CLM-91077',
        '--at',
        '2026-03-04',
        '--run-id',
        'dead00aa',
        '--latency',
        '150',
        '--db',
        db,
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => {
        resolve(signal);
      }),
    );
    const committed = await committedSteps(db, 'dead00aa', 3);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(committed).toBeGreaterThanOrEqual(3);

    const store = sqliteStore({ path: db });
    const engine = createEngine({ store });
    const run = await engine.getRun('dead00aa');
    expect(run.status).toBe('interrupted');
    expect(run.steps.length).toBeGreaterThanOrEqual(3);
    expect(run.steps.length).toBeLessThan(9);
    expect(run.steps.map((step) => step.step)).toEqual(run.steps.map((_step, i) => i + 1));
    for (let step = 0; step <= run.steps.length; step++) {
      expect((await restoreCheckpoint(store, 'dead00aa', step)).context.step).toBe(step);
    }
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    await store.close();
  });
});
