import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

const RECORDED = '2026-03-04T09:00:00Z';
const LATER_73H = '2026-03-07T10:00:00Z';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-tiers-cli-');
  db = join(folder.path, 'forkpoint.db');
  const recorded = await cli([
    'record',
    'scenarios/claims-triage',
    '--claim',
    'CLM-91077',
    '--at',
    '2026-03-04',
    '--run-id',
    '9b40c1d5',
    '--now',
    RECORDED,
    '--db',
    db,
  ]);
  expect(recorded.exit).toBe(1);
});
afterEach(() => {
  folder.cleanup();
});

const run = (args: string[]) => cli([...args, '--db', db]);
const json = async (args: string[]) => {
  const result = await run([...args, '--json']);
  return { exit: result.exit, body: JSON.parse(result.stdout), stderr: result.stderr };
};

describe('tiers and retention on the command line', () => {
  it('show and export print the bytes of each tier: the structural one at most a tenth of the full one', async () => {
    const shown = await run(['show', '9b40c1d5', '--now', RECORDED]);
    expect(shown.stdout).toContain(
      'retention: full tier until 2026-03-07T09:00:00.000Z; structural until 2026-06-02T09:00:00.000Z',
    );
    const ratio = Number(/\(1\/([\d.]+) of full\)/.exec(shown.stdout)?.[1]);
    expect(ratio).toBeGreaterThanOrEqual(10);
    const file = join(folder.path, 'incident.structural.json');
    const exported = await json(['export', '9b40c1d5', '--tier', 'structural', '-o', file, '--now', RECORDED]);
    expect(exported.body).toMatchObject({ tier: 'structural', expiresAt: '2026-06-02T09:00:00.000Z', entries: 9 });
    expect(exported.body.bytes).toBe(readFileSync(file).length);
    expect(exported.body.tiers.structural).toBe(exported.body.bytes);
    expect(exported.body.tiers.full).toBeGreaterThanOrEqual(10 * exported.body.bytes);
  });

  it('after gc --now 73 hours later: a full replay is CASSETTE_EXPIRED (exit 2), a structural one passes', async () => {
    const gc = await json(['gc', '--now', LATER_73H]);
    expect(gc.exit).toBe(0);
    expect(gc.body.purged).toMatchObject([{ runId: '9b40c1d5', expiredAt: '2026-03-07T09:00:00.000Z', steps: 9 }]);
    expect(gc.body.file.bytesAfter).toBeLessThan(gc.body.file.bytesBefore);

    const full = await run(['replay', '9b40c1d5', '--now', LATER_73H]);
    expect(full.exit).toBe(2);
    expect(full.stderr).toMatch(
      /CASSETTE_EXPIRED: cannot read the cassette of run 9b40c1d5: the full tier of run 9b40c1d5 expired at 2026-03-07T09:00:00.000Z and was removed/,
    );
    expect(full.stderr).toMatch(
      /the structural tier remains until 2026-06-02T09:00:00.000Z: `forkpoint replay 9b40c1d5 --tier structural`/,
    );
    expect(full.stderr).not.toMatch(/\n\s+at /);

    const structural = await json(['replay', '9b40c1d5', '--tier', 'structural', '--now', LATER_73H]);
    expect(structural.exit).toBe(0);
    expect(structural.body).toMatchObject({ mode: 'replay:structural', status: 'completed', divergence: null });
    expect(structural.body.steps).toHaveLength(9);

    const drifted = await json([
      'replay',
      '9b40c1d5',
      '--tier',
      'structural',
      '--build',
      'timestamped',
      '--now',
      LATER_73H,
    ]);
    expect(drifted.exit).toBe(1);
    expect(drifted.body).toMatchObject({
      status: 'diverged',
      divergence: { step: 1, kind: 'model', classification: 'changed' },
    });

    const fork = await run(['fork', '9b40c1d5', '--at-step', '4', '--tool-result', '{"x":1}', '--now', LATER_73H]);
    expect(fork.exit).toBe(2);
    expect(fork.stderr).toContain('CASSETTE_EXPIRED');
    const gcAgain = await run(['gc', '--now', LATER_73H]);
    expect(gcAgain.stdout).toContain('no full tier has expired');
  });

  it('replays a structural cassette file by its tier, and refuses an expired full cassette file', async () => {
    const structural = join(folder.path, 'structural.json');
    const full = join(folder.path, 'full.json');
    expect((await run(['export', '9b40c1d5', '--tier', 'structural', '-o', structural, '--now', RECORDED])).exit).toBe(
      0,
    );
    expect((await run(['export', '9b40c1d5', '-o', full, '--now', RECORDED])).exit).toBe(0);
    const replayed = await json([
      'replay',
      '--cassette',
      structural,
      '--scenario',
      'scenarios/claims-triage',
      '--now',
      LATER_73H,
    ]);
    expect(replayed.body).toMatchObject({ mode: 'replay:structural', status: 'completed', sourceCassette: structural });
    const expired = await run([
      'replay',
      '--cassette',
      full,
      '--scenario',
      'scenarios/claims-triage',
      '--now',
      LATER_73H,
    ]);
    expect(expired.exit).toBe(2);
    expect(expired.stderr).toMatch(
      /CASSETTE_EXPIRED: cassette .*full\.json \(full tier of run 9b40c1d5\) expired at 2026-03-07T09:00:00.000Z/,
    );
    const wrongMode = await run([
      'replay',
      '--cassette',
      structural,
      '--scenario',
      'scenarios/claims-triage',
      '--tier',
      'full',
    ]);
    expect(wrongMode.exit).toBe(2);
    expect(wrongMode.stderr).toContain('this is a structural cassette: replay it with --tier structural');
  });

  it('rejects a malformed --now, --tier or --capture with exit 2 and writes nothing', async () => {
    for (const args of [
      ['gc', '--now', 'next tuesday'],
      ['replay', '9b40c1d5', '--tier', 'partial'],
      ['export', '9b40c1d5', '--tier', 'synthetic'],
      ['record', 'scenarios/claims-triage', '--claim', 'CLM-91002', '--at', '2026-03-04', '--capture', 'some'],
      [
        'record-batch',
        'scenarios/claims-triage',
        '--claims',
        'CLM-91002',
        '--at',
        '2026-03-04',
        '--capture',
        'errors+sample:2',
      ],
    ]) {
      const result = await run(args);
      expect(result.exit, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: USAGE: /);
    }
    expect((await json(['runs'])).body.runs).toHaveLength(1);
  });

  it('record-batch keeps failures in full and sizes a day of runs under the capture policy', async () => {
    const batch = await json([
      'record-batch',
      'scenarios/claims-triage',
      '--claims',
      'CLM-91002,CLM-91035,CLM-91103',
      '--at',
      '2026-03-04',
      '--capture',
      'errors+sample:0',
      '--runs-per-day',
      '6000',
    ]);
    expect(batch.exit).toBe(0);
    const { capture } = batch.body;
    expect(capture).toMatchObject({
      policy: 'errors+sample:0',
      recorded: 3,
      keptFull: 1,
      keptBecause: { error: 1, sampled: 0 },
      runsPerDay: 6000,
    });
    expect(capture.bytesPerDay.captureAll).toBe(6000 * capture.bytesPerRun.full);
    expect(capture.bytesPerDay.policy).toBeLessThan(capture.bytesPerDay.captureAll / 2);
    const kept = batch.body.runs.filter((entry: { capture: { kept: boolean } }) => entry.capture.kept);
    expect(kept.map((entry: { input: { claimId: string } }) => entry.input.claimId)).toEqual(['CLM-91035']);
    const text = await run(['record-batch', 'scenarios/claims-triage', '--claims', 'CLM-91002', '--at', '2026-03-04']);
    expect(text.stdout).toMatch(/capture errors\+sample:0\.01: kept 0 of 1 runs in full/);
    expect(text.stdout).toMatch(/per day at 6000 runs: [\d.]+ MB capturing all; [\d.]+ MB under errors\+sample:0\.01/);
  });
});

describe('forkpoint eval', () => {
  it('passes baseline on every synthetic case, and lists the referrals the patched threshold adds', async () => {
    const baseline = await json(['eval', 'scenarios/claims-triage/synthetic', '--build', 'baseline']);
    expect(baseline.exit).toBe(0);
    expect(baseline.body.cases.length).toBeGreaterThanOrEqual(40);
    expect(baseline.body).toMatchObject({ build: 'baseline', failed: 0, passRate: 1 });
    const patched = await json([
      'eval',
      'scenarios/claims-triage/synthetic',
      '--build',
      'patched',
      '--compare',
      'baseline',
    ]);
    expect(patched.exit).toBe(1);
    expect(patched.body.failed).toBeGreaterThan(0);
    expect(patched.body.differences).toHaveLength(patched.body.failed);
    for (const difference of patched.body.differences) {
      expect(difference.reference.actual).toMatch(/^approve/);
      expect(difference.candidate.actual).toBe('refer');
    }
    const runs = (await json(['runs', '--limit', '1000'])).body.runs;
    expect(runs.filter((entry: { retention: { tier: string } }) => entry.retention.tier === 'synthetic').length).toBe(
      baseline.body.cases.length * 3,
    );
  });

  it('names a malformed case file and exits 2', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const cases = join(folder.path, 'synthetic');
    mkdirSync(cases);
    writeFileSync(join(cases, 'bad.json'), '{"id": "SYN-1"}');
    const result = await run(['eval', cases, '--build', 'baseline', '--scenario', 'scenarios/claims-triage']);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: INPUT_INVALID: .*bad\.json/);
  });
});
