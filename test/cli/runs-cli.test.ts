import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/index.js';
import { sampleRun, sampleStep, SAMPLE_OWNER_TOKEN } from '../../src/testing/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

const folder = tempFolder('forkpoint-runs-cli-');
const db = join(folder.path, 'forkpoint.db');
// A scenario outside the package: its runs store its absolute path.
const elsewhere = join(folder.path, 'my-scenario');
afterAll(() => {
  folder.cleanup();
});

// 120 runs a minute apart on 2026-03-04 and 05: every fourth a replay of the one before it, every tenth
// of build patched, every seventh failed; the last one still running under a lapsed lease. Every third is of
// the built-in scenarios/claims-triage, every third after the first of the scenario elsewhere.
beforeAll(async () => {
  mkdirSync(elsewhere);
  const store = sqliteStore({ path: db });
  for (let n = 1; n <= 120; n++) {
    const runId = n.toString(16).padStart(12, '0');
    const minutes = n * 24;
    const createdAt = new Date(Date.UTC(2026, 2, 4, 0, minutes)).toISOString();
    const replay = n % 4 === 0;
    await store.createRun(
      sampleRun({
        runId,
        createdAt,
        build: n % 10 === 0 ? 'patched' : 'baseline',
        mode: replay ? 'replay:strict' : 'record',
        scenario: ['scenarios/claims-triage', 'scenarios/sample', elsewhere][n % 3]!,
        sourceRunId: replay ? (n - 1).toString(16).padStart(12, '0') : null,
        owner: { pid: 1, host: 'gone', token: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1 },
      }),
      sampleStep(0, { checkpointFull: true }),
      [],
    );
    if (n === 120) continue;
    const failed = n % 7 === 0;
    await store.finishRun(runId, SAMPLE_OWNER_TOKEN, {
      status: failed ? 'failed' : 'completed',
      outcome: failed ? null : { ok: true },
      error: failed ? { code: 'VALIDATION_FAILED', message: 'no', step: 1 } : null,
      finishedAt: createdAt,
    });
  }
  await store.close();
});

const json = async (...args: string[]) => {
  const result = await cli(['runs', '--db', db, '--json', ...args]);
  expect(result.exit).toBe(0);
  return JSON.parse(result.stdout) as {
    runs: Array<{ runId: string; mode: string; status: string; createdAt: string }>;
    next: string | null;
  };
};
const id = (n: number) => n.toString(16).padStart(12, '0');

describe('forkpoint runs', () => {
  it('prints one page of 50, newest first, as one JSON document with the cursor of the next', async () => {
    const page = await json();
    expect(page.runs.map((run) => run.runId)).toEqual(Array.from({ length: 50 }, (_, i) => id(120 - i)));
    expect(page.next).toBe(id(71));
    const rest = await json('--before', page.next!, '--limit', '100');
    expect(rest.runs.map((run) => run.runId)).toEqual(Array.from({ length: 70 }, (_, i) => id(70 - i)));
    expect(rest.next).toBeNull();
  });

  it('filters by --mode, --status (interrupted included), --build and --since', async () => {
    expect((await json('--mode', 'replay:strict', '--limit', '3')).runs.map((run) => run.runId)).toEqual([
      id(120),
      id(116),
      id(112),
    ]);
    expect((await json('--status', 'interrupted')).runs.map((run) => run.runId)).toEqual([id(120)]);
    expect((await json('--status', 'running')).runs).toEqual([]);
    expect((await json('--status', 'failed', '--build', 'patched')).runs.map((run) => run.runId)).toEqual([id(70)]);
    // 2026-03-05 begins with run 60 (60 x 24 minutes after midnight on the 4th).
    const since = await json('--since', '2026-03-05', '--limit', '1000');
    expect(since.runs).toHaveLength(61);
    expect(since.runs.at(-1)!.runId).toBe(id(60));
    expect((await json('--since', '2026-03-05T01:00:00+01:00', '--limit', '1000')).runs).toHaveLength(61);
  });

  it('filters by --until, strictly before it, alone and with --since', async () => {
    const until = await json('--until', '2026-03-05', '--limit', '1000');
    expect(until.runs.map((run) => run.runId)).toEqual(Array.from({ length: 59 }, (_, i) => id(59 - i)));
    expect((await json('--until', '2026-03-05T01:00:00+01:00', '--limit', '1000')).runs).toHaveLength(59);
    expect((await json('--until', '2026-03-05T00:00:00.001Z', '--limit', '1000')).runs[0]!.runId).toBe(id(60));
    // Noon on the 4th is run 30; the day ends before run 60.
    const window = await json('--since', '2026-03-04T12:00:00Z', '--until', '2026-03-05', '--limit', '1000');
    expect([window.runs.length, window.runs[0]!.runId, window.runs.at(-1)!.runId]).toEqual([30, id(59), id(30)]);
    expect((await json('--since', '2026-03-05', '--until', '2026-03-04')).runs).toEqual([]);
  });

  it('filters by --scenario, the directory however it is spelt, alone and with the other filters', async () => {
    const triage = [id(120), id(117), id(114)];
    for (const spelling of [
      'scenarios/claims-triage',
      './scenarios/claims-triage/',
      resolve('scenarios/claims-triage'),
    ])
      expect((await json('--scenario', spelling, '--limit', '3')).runs.map((run) => run.runId)).toEqual(triage);
    expect((await json('--scenario', elsewhere, '--limit', '2')).runs.map((run) => run.runId)).toEqual([
      id(119),
      id(116),
    ]);
    expect((await json('--scenario', join(folder.path, 'no-such-scenario'))).runs).toEqual([]);
    expect(
      (await json('--scenario', 'scenarios/claims-triage', '--until', '2026-03-05', '--status', 'failed')).runs.map(
        (run) => run.runId,
      ),
    ).toEqual([id(42), id(21)]);
    // The cursor goes on inside the filters.
    const page = await json('--scenario', elsewhere, '--until', '2026-03-05', '--limit', '2');
    expect([page.runs.map((run) => run.runId), page.next]).toEqual([[id(59), id(56)], id(56)]);
    const after = await json('--scenario', elsewhere, '--until', '2026-03-05', '--limit', '2', '--before', id(56));
    expect(after.runs.map((run) => run.runId)).toEqual([id(53), id(50)]);
  });

  it('shows where each run came from, and how to list the page after', async () => {
    const result = await cli(['runs', '--db', db, '--limit', '4', '--build', 'baseline']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^run +mode +build +input +world +steps +from +USD +status$/);
    expect(
      lines.slice(1, 5).map((line) =>
        line
          .split(/\s{2,}/)
          .slice(0, 2)
          .concat(line.split(/\s{2,}/)[6]!),
      ),
    ).toEqual([
      [id(119), 'record', '-'],
      [id(118), 'record', '-'],
      [id(117), 'record', '-'],
      [id(116), 'replay:strict', id(115)],
    ]);
    expect(lines[5]).toBe(
      `4 runs shown, newest first; older ones: forkpoint runs --db ${db} --limit 4 --build baseline --before ${id(116)}`,
    );
  });

  it.each([
    [['--limit', '0'], /--limit must be a whole number from 1 to 10000/],
    [
      ['--mode', 'replay'],
      /option '--mode <MODE>' argument 'replay' is invalid\. Allowed choices are record, replay:strict/,
    ],
    [
      ['--status', 'done'],
      /option '--status <STATUS>' argument 'done' is invalid\. Allowed choices are running, completed/,
    ],
    [['--since', 'yesterday'], /--since must be a date/],
    [['--until', '2026-13-01'], /--until must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp/],
    [['--scenario', ''], /--scenario must name a scenario directory/],
    [['--before', 'XYZ'], /run id "XYZ" must be 12 lowercase hex/],
  ])('refuses %j with USAGE (exit 2)', async (args, message) => {
    const result = await cli(['runs', '--db', db, ...args]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: USAGE: /);
    expect(result.stderr).toMatch(message);
  });

  it('names a cursor that is no run: RUN_NOT_FOUND', async () => {
    const result = await cli(['runs', '--db', db, '--before', 'abcdefabcdef']);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: RUN_NOT_FOUND: no run abcdefabcdef/);
  });
});
