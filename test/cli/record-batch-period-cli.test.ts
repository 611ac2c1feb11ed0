import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-batch-period-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

const run = (args: readonly string[]) => cli([...args, '--db', db]);
const json = async (args: readonly string[]) => {
  const result = await run([...args, '--json']);
  return { exit: result.exit, body: JSON.parse(result.stdout), stderr: result.stderr };
};
const batch = (...more: readonly string[]) => [
  'record-batch',
  'scenarios/claims-triage',
  '--claims',
  'CLM-91077,CLM-91002',
  ...more,
];

interface BatchRunJson {
  readonly input: { readonly claimId: string };
  readonly worldAt: string;
  readonly seed: number;
  readonly createdAt: string;
  readonly status: string;
}

describe('forkpoint record-batch --until', () => {
  it('records every claim on every day of the period, day by day, each day’s runs made on that day', async () => {
    const { exit, body } = await json(batch('--at', '2026-03-03', '--until', '2026-03-05', '--seed', '7'));
    expect(exit).toBe(0);
    expect(body).toMatchObject({ mode: 'record-batch', at: '2026-03-03', until: '2026-03-05', recorded: 6 });
    const runs = body.runs as BatchRunJson[];
    expect(runs.map((entry) => [entry.worldAt, entry.input.claimId, entry.seed, entry.createdAt])).toEqual([
      ['2026-03-03', 'CLM-91077', 7, '2026-03-03T09:00:00.000Z'],
      ['2026-03-03', 'CLM-91002', 8, '2026-03-03T09:01:00.000Z'],
      ['2026-03-04', 'CLM-91077', 9, '2026-03-04T09:00:00.000Z'],
      ['2026-03-04', 'CLM-91002', 10, '2026-03-04T09:01:00.000Z'],
      ['2026-03-05', 'CLM-91077', 11, '2026-03-05T09:00:00.000Z'],
      ['2026-03-05', 'CLM-91002', 12, '2026-03-05T09:01:00.000Z'],
    ]);
    // Each day's world answers: OCR v1 misreads the folded form until 2026-03-05, when v2 reads it.
    expect(runs.filter((entry) => entry.status === 'failed').map((entry) => entry.worldAt)).toEqual([
      '2026-03-03',
      '2026-03-04',
    ]);
    expect(body.failed).toBe(2);
    // The store lists them by the day they were made, as `similar --since` and `classes --since` count them.
    const listed = await json(['runs', '--since', '2026-03-04', '--until', '2026-03-05']);
    expect(listed.body.runs.map((entry: BatchRunJson) => entry.createdAt).sort()).toEqual([
      '2026-03-04T09:00:00.000Z',
      '2026-03-04T09:01:00.000Z',
    ]);
  });

  it('says the period in its summary and names each exported cassette by its own day', async () => {
    const out = join(folder.path, 'suite');
    const result = await run(batch('--at', '2026-03-04', '--until', '2026-03-05', '--export', out, '--failed-only'));
    expect(result.exit).toBe(0);
    expect(result.stdout).toMatch(/^recorded 4 runs over 2 days, 2026-03-04 to 2026-03-05: 3 completed, 1 failed; /m);
    expect(result.stderr).toMatch(/^recorded 3\/4: [0-9a-f]+ claimId=CLM-91077 on 2026-03-05 completed$/m);
    expect(readdirSync(out)).toEqual(['CLM-91077-2026-03-04-baseline.cassette.json']);
  });

  it('with --at alone records one day, stamped by --now as before, and gives until as that day', async () => {
    const { exit, body } = await json(batch('--at', '2026-03-04', '--seed', '3', '--now', '2026-12-01T10:00:00Z'));
    expect(exit).toBe(0);
    expect(body).toMatchObject({ at: '2026-03-04', until: '2026-03-04', recorded: 2 });
    expect((body.runs as BatchRunJson[]).map((entry) => [entry.worldAt, entry.seed, entry.createdAt])).toEqual([
      ['2026-03-04', 3, '2026-12-01T10:00:00.000Z'],
      ['2026-03-04', 4, '2026-12-01T10:00:00.000Z'],
    ]);
  });

  it.each([
    ['an --until before --at', ['--at', '2026-03-05', '--until', '2026-03-04'], /--until 2026-03-04 is before --at/],
    [
      'a day that does not exist',
      ['--at', '2026-03-01', '--until', '2026-02-30'],
      /date "2026-02-30" is not a calendar day/,
    ],
    ['a malformed date', ['--at', '2026-03-01', '--until', '14 March'], /date "14 March" is not a calendar day/],
    [
      'a period over 366 days',
      ['--at', '2026-01-01', '--until', '2027-01-02'],
      /spans 367 days; a batch records at most 366/,
    ],
    ['--now with --until', ['--at', '2026-03-01', '--until', '2026-03-02', '--now', '2026-03-01T00:00:00Z'], /--now/],
    [
      'a seed with too few numbers left for every run',
      ['--at', '2026-03-01', '--until', '2026-03-02', '--seed', '4294967292'],
      /--seed must be a whole number from 0 to 4294967291/,
    ],
  ])('refuses %s with USAGE, writing nothing', async (_, args, message) => {
    const result = await run(batch(...args));
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: USAGE: /);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(db)).toBe(false);
  });

  it('documents the period in --help', async () => {
    const help = (await cli(['record-batch', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--until <DATE> the last day of the period, inclusive');
    expect(help).toContain("each day's runs are made on that day (09:00 UTC, a minute apart)");
  });
});
