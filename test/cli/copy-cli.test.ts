import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/index.js';
import { startedRunRecord } from '../../src/store/index.js';
import { hostIdentity } from '../../src/engine/index.js';
import { sampleRun, sampleStep } from '../../src/testing/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';
import { committedSteps } from '../support/committed-steps.js';
import { cliJson, demoAnswers, demoForkAnswer, demoReplayAnswer } from '../support/demo-answers.js';

// The demo's database, made once: every test copies it, or a copy of it, somewhere of its own.
let folder: ReturnType<typeof tempFolder>;
let demo: string;
let forkId: string;
let replayId: string;
beforeAll(async () => {
  folder = tempFolder('forkpoint-copy-cli-');
  demo = join(folder.path, 'demo.db');
  expect((await cli(['demo', '--db', demo])).exit).toBe(0);
  const runs = JSON.parse((await cli(['runs', '--limit', '1000', '--json', '--db', demo])).stdout) as {
    runs: Array<{ runId: string; mode: string; parent: { runId: string } | null; sourceRunId: string | null }>;
  };
  forkId = runs.runs.find((run) => run.mode === 'fork' && run.parent?.runId === '9b40c1d5')?.runId ?? '';
  replayId = runs.runs.find((run) => run.mode === 'replay:strict' && run.sourceRunId === '9b40c1d5')?.runId ?? '';
  expect(forkId).toMatch(/^[0-9a-f]{12}$/);
  expect(replayId).toMatch(/^[0-9a-f]{12}$/);
}, 120_000);
afterAll(() => {
  folder.cleanup();
});

let files = 0;
const fresh = (name = 'copy'): string => join(folder.path, `${name}-${++files}.db`);
const json = cliJson;
const hashOf = (path: string): string =>
  ['', '-wal']
    .map((suffix) =>
      existsSync(path + suffix)
        ? createHash('sha256')
            .update(readFileSync(path + suffix))
            .digest('hex')
        : '-',
    )
    .join('/');
interface CopyJson {
  mode: string;
  copied: number;
  skipped: number;
  runs: Array<{ runId: string; action: string; mode: string; status: string; purged: boolean }>;
}
const copy = async (...args: string[]): Promise<CopyJson> => (await json(['copy', ...args])) as CopyJson;

const answers = (db: string) => demoAnswers(db, forkId);

describe('forkpoint copy between SQLite files', () => {
  it("copies the demo's database whole, and runs, tree, show and compare answer the same on the copy", async () => {
    const target = fresh();
    const report = await copy('--from', demo, '--to', target);
    const listed = (await json(['runs', '--limit', '1000', '--db', demo])) as { runs: unknown[] };
    expect(report).toMatchObject({ mode: 'copy', copied: listed.runs.length, skipped: 0 });
    expect(report.runs.every((run) => run.action === 'copied')).toBe(true);
    // A fork after its parent, a replay after its source.
    const order = report.runs.map((run) => run.runId);
    expect(order.indexOf(forkId)).toBeGreaterThan(order.indexOf('9b40c1d5'));
    expect(order.indexOf(replayId)).toBeGreaterThan(order.indexOf('9b40c1d5'));
    expect(await answers(target)).toEqual(await answers(demo));
  });

  it('replays strictly and forks on the copy exactly as on the source', async () => {
    const [source, target] = [fresh('source'), fresh()];
    copyFileSync(demo, source);
    await copy('--from', demo, '--to', target);
    expect(await demoReplayAnswer(target)).toBe(await demoReplayAnswer(source));
    const forked = await demoForkAnswer(target);
    expect(forked).toMatchObject({ mode: 'fork', status: 'completed' });
    expect(forked).toEqual(await demoForkAnswer(source));
  });

  it('writes nothing when copied again: every run is skipped and the target file is unchanged', async () => {
    const target = fresh();
    await copy('--from', demo, '--to', target);
    const before = hashOf(target);
    const again = await copy('--from', demo, '--to', target);
    expect(again.copied).toBe(0);
    expect(again.skipped).toBe(again.runs.length);
    expect(hashOf(target)).toBe(before);
    expect((await cli(['copy', '--from', demo, '--to', target])).stdout).toMatch(
      /^copy · \d+ runs from .*\n(.*\n)+nothing to copy: the target holds all \d+ already\n$/,
    );
  });

  it('copies the runs named with --run and the runs they were made from, parents first', async () => {
    const target = fresh();
    const report = await copy('--from', demo, '--to', target, '--run', forkId, '--run', replayId);
    // In the source's order (oldest first), the incident before both runs made from it.
    const listed = ((await json(['runs', '--limit', '1000', '--db', demo])) as { runs: Array<{ runId: string }> }).runs
      .map((run) => run.runId)
      .reverse();
    expect(report.runs.map((run) => run.runId)).toEqual(
      ['9b40c1d5', replayId, forkId].sort((a, b) => listed.indexOf(a) - listed.indexOf(b)),
    );
    expect(report.runs[0]?.runId).toBe('9b40c1d5');
    expect(await json(['show', forkId, '--step', '5', '--db', target])).toEqual(
      await json(['show', forkId, '--step', '5', '--db', demo]),
    );
    // The rest follows on a later copy, which skips what is there already.
    const rest = await copy('--from', demo, '--to', target);
    expect(rest.skipped).toBe(3);
    expect(await answers(target)).toEqual(await answers(demo));
  });

  it('copies purged runs as purged: their summaries and structural tiers, which still replay by shape', async () => {
    const [source, target] = [fresh('source'), fresh()];
    // The demo's runs are synthetic, kept without expiry: a full-tier recording of its own expires after 72 hours.
    const record = ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04'];
    const recorded = await cli([
      ...record,
      '--run-id',
      '00000000feed',
      '--now',
      '2026-03-04T10:00:00Z',
      '--db',
      source,
    ]);
    expect(recorded.exit).toBe(1);
    await cli([...record, '--run-id', '00000000face', '--now', '2026-03-07T09:00:00Z', '--db', source]);
    const at = ['--now', '2026-03-08T00:00:00Z'];
    const gc = (await json(['gc', ...at, '--db', source])) as { purged: Array<{ runId: string }> };
    expect(gc.purged.map((run) => run.runId)).toEqual(['00000000feed']);
    const report = await copy('--from', source, '--to', target);
    expect(report.runs.map((run) => [run.runId, run.purged])).toEqual([
      ['00000000feed', true],
      ['00000000face', false],
    ]);
    for (const runId of ['00000000feed', '00000000face'])
      expect(await json(['show', runId, ...at, '--db', target])).toEqual(
        await json(['show', runId, ...at, '--db', source]),
      );
    const structural = await cli(['replay', '00000000feed', '--tier', 'structural', '--json', ...at, '--db', target]);
    expect(JSON.parse(structural.stdout)).toMatchObject({ mode: 'replay:structural', sourceRunId: '00000000feed' });
    // The full tier that is left is sealed by the target's own key for its day: export and replay it there.
    const exported = join(folder.path, `face-${files}.cassette.json`);
    expect((await cli(['export', '00000000face', '-o', exported, ...at, '--db', target])).exit).toBe(0);
    const replayed = await cli([
      'replay',
      '--cassette',
      exported,
      '--scenario',
      'scenarios/claims-triage',
      '--json',
      ...at,
      '--db',
      target,
    ]);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ mode: 'replay:strict', status: 'failed' });
    // A cassette the source sealed names the source's store id: it opens against the source only.
    const sealed = join(folder.path, `face-source-${files}.cassette.json`);
    await cli(['export', '00000000face', '-o', sealed, ...at, '--db', source]);
    const elsewhere = await cli([
      'replay',
      '--cassette',
      sealed,
      '--scenario',
      'scenarios/claims-triage',
      ...at,
      '--db',
      target,
    ]);
    expect(elsewhere.stderr).toMatch(
      /^forkpoint: CASSETTE_SEALED: cassette .* was sealed by store [0-9a-f]+, and .* is store [0-9a-f]+/,
    );
  });

  it('copies an interrupted run as interrupted, and resume finishes it in the target', async () => {
    const [source, target] = [fresh('source'), fresh()];
    const bin = join(import.meta.dirname, '../../bin/forkpoint.js');
    const record = ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04', '--seed', '1'];
    const child = spawn(
      process.execPath,
      [bin, ...record, '--run-id', '00000000dead', '--latency', '150', '--db', source],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await committedSteps(source, '00000000dead', 3);
    child.kill('SIGKILL');
    await exited;
    const report = await copy('--from', source, '--to', target);
    expect(report.runs).toMatchObject([{ runId: '00000000dead', status: 'interrupted', action: 'copied' }]);
    const resumed = await cli([
      'resume',
      '00000000dead',
      '--side-effects',
      'estimate_repair=simulate',
      '--json',
      '--db',
      target,
    ]);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ mode: 'record', runId: '00000000dead', status: 'failed' });
    expect(JSON.parse(resumed.stdout).error).toMatchObject({ code: 'VALIDATION_FAILED', step: 9 });
  });
});

describe('forkpoint copy refuses, with one line and exit 2, writing nothing', () => {
  const refused = async (args: readonly string[], pattern: RegExp) => {
    const result = await cli(['copy', ...args]);
    expect(result.exit).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
  };

  it('the same store as --from and --to, however it is spelled', async () => {
    await refused(
      ['--from', demo, '--to', join(folder.path, '.', 'demo.db')],
      /^forkpoint: USAGE: --from and --to name the same store/,
    );
  });

  it('an unknown run, and a source that does not exist; the target is not made', async () => {
    const target = fresh();
    await refused(
      ['--from', demo, '--to', target, '--run', '00000000beef'],
      /^forkpoint: RUN_NOT_FOUND: no run 00000000beef in /,
    );
    await refused(['--from', fresh('missing'), '--to', target], /^forkpoint: RUN_NOT_FOUND: there is no database at /);
    expect(existsSync(target)).toBe(false);
  });

  it('a run the target holds under the same id with other content', async () => {
    const target = fresh();
    await copy('--from', demo, '--to', target, '--run', '9b40c1d5');
    const other = fresh('other');
    const store = sqliteStore({ path: other });
    await store.writeRun(sampleRun({ runId: '9b40c1d5' }), [sampleStep(0, { checkpointFull: true })], [], {
      status: 'completed',
      outcome: {},
      error: null,
      finishedAt: '2026-03-04T10:00:00.000Z',
    });
    await store.close();
    const before = hashOf(target);
    await refused(
      ['--from', other, '--to', target],
      /^forkpoint: RUN_EXISTS: .* holds a run 9b40c1d5 already, with other content/,
    );
    expect(hashOf(target)).toBe(before);
  });

  it('a run still being recorded, naming it', async () => {
    const source = fresh('live');
    const store = sqliteStore({ path: source });
    const owner = {
      pid: process.pid,
      host: hostIdentity(),
      token: 'live-owner',
      leaseExpiresAt: Date.now() + 3_600_000,
    };
    await store.importRun({ ...startedRunRecord(sampleRun({ runId: '00000000f00d', owner })) }, [sampleStep(0)], []);
    await store.close();
    const target = fresh();
    await refused(
      ['--from', source, '--to', target],
      /^forkpoint: COPY_REFUSED: run 00000000f00d in .* is still being recorded \(process \d+/,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('a URL of another scheme, and an unreachable server, without its password', async () => {
    await refused(
      ['--from', demo, '--to', 'mysql://me:hunter2@db/runs'],
      /^forkpoint: USAGE: unsupported store URL mysql:\/\/me:\*\*\*@db\/runs/,
    );
    const result = await cli(['copy', '--from', demo, '--to', 'postgres://me:hunter2@127.0.0.1:1/runs', '--json']);
    expect(result.exit).toBe(2);
    expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
    expect(result.stderr).toMatch(
      /^forkpoint: STORE_UNREACHABLE: cannot reach the PostgreSQL server of postgres:\/\/me@127\.0\.0\.1:1\/runs: the connection was refused/,
    );
  });
});
