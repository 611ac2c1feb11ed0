import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-verify-cli-');
  db = join(folder.path, 'forkpoint.db');
  await cli([
    'record',
    'scenarios/claims-triage',
    '--claim',
    'CLM-91077',
    '--at',
    '2026-03-04',
    '--run-id',
    '9b40c1d5',
    '--db',
    db,
  ]);
});
afterEach(() => {
  folder.cleanup();
});

const json = async (args: string[]) => {
  const result = await cli([...args, '--db', db, '--json']);
  return { exit: result.exit, body: JSON.parse(result.stdout), stderr: result.stderr };
};

describe('forkpoint verify', () => {
  it('confirms the fix over the recording: control still fails, candidate refers (exit 0)', async () => {
    const { exit, body } = await json(['verify', '9b40c1d5', '--candidate', 'patched', '--baseline', 'baseline']);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      verdict: 'fix-confirmed',
      mode: 'replay:strict',
      candidate: { build: 'patched', outcomes: { 'completed: refer': 1 } },
      control: { build: 'baseline', outcomes: { 'failed: VALIDATION_FAILED': 1 } },
      divergence: null,
    });
    expect(body.candidate.runs).toHaveLength(1);
  });

  it('finds the trajectory gone when both arms re-execute on 2026-03-09 (not-reproducible, exit 1)', async () => {
    const { exit, body } = await json([
      'verify',
      '9b40c1d5',
      '--candidate',
      'patched',
      '--baseline',
      'baseline',
      '--mode',
      'reexecution',
      '--at',
      '2026-03-09',
      '--repeats',
      '5',
      '--side-effects',
      'simulate',
    ]);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      verdict: 'not-reproducible',
      mode: 'reexecution',
      control: { outcomes: { 'completed: approve': 5 } },
    });
    expect(body.candidate.runs).toHaveLength(5);
    expect(new Set(body.candidate.runs).size).toBe(5);
  });

  it('reports the timestamped candidate as diverged at step 1 (exit 1)', async () => {
    const { exit, body } = await json(['verify', '9b40c1d5', '--candidate', 'timestamped', '--baseline', 'baseline']);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      verdict: 'candidate-diverged',
      divergence: { step: 1, kind: 'model', index: 0, classification: 'changed', changed: ['system'] },
    });
  });

  it('stores every arm’s runs, labelled, under the recording', async () => {
    const { body } = await json([
      'verify',
      '9b40c1d5',
      '--candidate',
      'patched',
      '--baseline',
      'baseline',
      '--mode',
      'reexecution',
      '--at',
      '2026-03-09',
      '--repeats',
      '2',
      '--side-effects',
      'simulate',
    ]);
    const tree = await json(['tree', '9b40c1d5']);
    const children = tree.body.tree.children.map((node: { run: { runId: string; mode: string } }) => [
      node.run.runId,
      node.run.mode,
    ]);
    expect(children).toEqual(
      [...body.candidate.runs, ...body.control.runs].map((runId: string) => [runId, 'reexecution']),
    );
  });

  it.each([
    [['--candidate', 'patched'], /required option '--baseline <BUILD>' not specified/],
    [['--candidate', 'patched', '--baseline', 'baseline', '--mode', 'reexecution'], /needs --at DATE/],
    [
      ['--candidate', 'patched', '--baseline', 'baseline', '--mode', 'sideways'],
      /argument 'sideways' is invalid\. Allowed choices are replay, reexecution/,
    ],
    [['--candidate', 'nightly', '--baseline', 'baseline'], /no build "nightly"/],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await cli(['verify', '9b40c1d5', ...args, '--db', db]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('forkpoint suite and record-batch', () => {
  it('passes every committed cassette with baseline', async () => {
    const { exit, body } = await json([
      'suite',
      'test/fixtures/cassettes',
      '--scenario',
      'scenarios/claims-triage',
      '--build',
      'baseline',
    ]);
    expect(exit).toBe(0);
    expect(body).toMatchObject({ mode: 'suite', build: 'baseline', failed: 0, diverged: 0, invalid: 0 });
    expect(body.passed).toBeGreaterThanOrEqual(20);
  });

  it('fails a build that changes outcomes, and writes JUnit XML naming each case', async () => {
    const junit = join(folder.path, 'suite.xml');
    const result = await cli([
      'suite',
      'test/fixtures/cassettes',
      '--scenario',
      'scenarios/claims-triage',
      '--build',
      'patched',
      '--junit',
      junit,
    ]);
    expect(result.exit).toBe(1);
    expect(result.stdout).toMatch(
      /failed +test\/fixtures\/cassettes\/2026-03-04\/CLM-91058-2026-03-04-baseline\.cassette\.json: recorded completed: approve, now completed: refer/,
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="forkpoint suite" tests="20" failures="1" errors="0"/);
    expect(xml).toMatch(
      /name="test\/fixtures\/cassettes\/2026-03-04\/CLM-91058-2026-03-04-baseline.cassette.json"[^>]*>\n\s*<failure type="outcome-changed"/,
    );
  });

  it('reports divergences with their first divergence', async () => {
    const { exit, body } = await json([
      'suite',
      'test/fixtures/cassettes/2026-03-09',
      '--scenario',
      'scenarios/claims-triage',
      '--build',
      'timestamped',
    ]);
    expect(exit).toBe(1);
    expect(body.diverged).toBe(10);
    expect(body.cases[0].divergence).toMatchObject({ step: 1, kind: 'model', classification: 'changed' });
  });

  it('records a batch of claims and exports the failures as a suite', async () => {
    const out = join(folder.path, 'failures');
    const { exit, body } = await json([
      'record-batch',
      'scenarios/claims-triage',
      '--claims',
      'ALL',
      '--at',
      '2026-03-04',
      '--seed',
      '1',
      '--export',
      out,
      '--failed-only',
    ]);
    expect(exit).toBe(0);
    // On the incident's day: the plain under-deductible claim, and three folded forms misread by OCR v1.
    expect(body).toMatchObject({ mode: 'record-batch', recorded: 18, failed: 4 });
    expect(body.exported.map((file: string) => file.slice(out.length + 1)).sort()).toEqual([
      'CLM-91035-2026-03-04-baseline.cassette.json',
      'CLM-91077-2026-03-04-baseline.cassette.json',
      'CLM-91114-2026-03-04-baseline.cassette.json',
      'CLM-91125-2026-03-04-baseline.cassette.json',
    ]);
    // Patched still fails the first (its estimate is under the deductible): it passes, ending as recorded. It
    // refers the folded forms: their outcome changed.
    const suite = await json(['suite', out, '--scenario', 'scenarios/claims-triage', '--build', 'patched']);
    expect(
      suite.body.cases.map((item: { name: string; status: string }) => `${basename(item.name)} ${item.status}`),
    ).toEqual([
      'CLM-91035-2026-03-04-baseline.cassette.json passed',
      'CLM-91077-2026-03-04-baseline.cassette.json failed',
      'CLM-91114-2026-03-04-baseline.cassette.json failed',
      'CLM-91125-2026-03-04-baseline.cassette.json failed',
    ]);
  });

  it('marks a cassette it cannot read as invalid and exits 2', async () => {
    const out = join(folder.path, 'broken');
    await json([
      'record-batch',
      'scenarios/claims-triage',
      '--claims',
      'CLM-91002',
      '--at',
      '2026-03-04',
      '--export',
      out,
    ]);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(out, 'junk.json'), '{"format":"forkpoint-cassette/7"}');
    const result = await json(['suite', out, '--scenario', 'scenarios/claims-triage', '--build', 'baseline']);
    expect(result.exit).toBe(2);
    expect(result.body).toMatchObject({ passed: 1, invalid: 1 });
  });
});
