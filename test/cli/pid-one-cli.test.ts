import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { committedSteps } from '../support/committed-steps.js';

const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');
// A recorder that is PID 1, as in a container: a PID namespace of its own. Linux, with the right to make one.
const UNSHARE = spawnSync('unshare', ['--pid', '--fork', '--kill-child=SIGKILL', 'true']).status === 0;
// CI (`.ci/run` sets CI=1) runs as root on Linux: there a missing unshare is a failure, never a skip.
const REQUIRED = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0';
if (!UNSHARE && !REQUIRED)
  console.warn(
    'skipped: the PID-1 recorder test needs `unshare --pid --fork` (util-linux on Linux, run as root: `sudo npx vitest run test/cli/pid-one-cli.test.ts`)',
  );

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-pid-one-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

const forkpoint = (args: readonly string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, ...args, '--db', db], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });

describe.runIf(UNSHARE || REQUIRED)('a recorder killed while it ran as PID 1', () => {
  it('reads as running while its lease holds, then interrupted, and gc collects it after its TTL', async () => {
    expect(UNSHARE, 'this machine cannot run `unshare --pid --fork` (util-linux, as root)').toBe(true);
    const child = spawn(
      'unshare',
      [
        '--pid',
        '--fork',
        '--kill-child=SIGKILL',
        process.execPath,
        BIN,
        'record',
        'scenarios/claims-triage',
        '--claim',
        'CLM-91077',
        '--at',
        '2026-03-04',
        '--run-id',
        '00000001',
        '--latency',
        '200',
        '--db',
        db,
      ],
      { stdio: 'ignore', env: { ...process.env, FORKPOINT_LEASE_MS: '1500' } },
    );
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        resolve();
      }),
    );
    const committed = await committedSteps(db, '00000001', 2);
    child.kill('SIGKILL');
    await exited;
    expect(committed).toBeGreaterThanOrEqual(2);
    const owner = JSON.parse(forkpoint(['show', '00000001', '--json']).stdout) as { status: string };
    // PID 1 on this host is alive (its own init), and the PID namespace differs: only the lease can tell.
    expect(owner.status).toBe('running');
    await sleep(1700);
    expect((JSON.parse(forkpoint(['show', '00000001', '--json']).stdout) as { status: string }).status).toBe(
      'interrupted',
    );
    const gc = forkpoint(['gc', '--json', '--now', new Date(Date.now() + 73 * 3_600_000).toISOString()]);
    expect(JSON.parse(gc.stdout).purged.map((run: { runId: string }) => run.runId)).toEqual(['00000001']);
  });
});
