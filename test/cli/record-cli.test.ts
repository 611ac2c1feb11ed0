import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-cli-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

const record = (...extra: string[]) =>
  cli(['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04', '--db', db, ...extra]);
const runCount = async (): Promise<number> => {
  const store = sqliteStore({ path: db });
  try {
    return (await store.listRuns()).length;
  } finally {
    await store.close();
  }
};

describe('forkpoint record', () => {
  it('records the incident as one JSON run result (exit 1: the run failed)', async () => {
    const result = await record('--run-id', '9b40c1d5', '--json');
    expect(result.exit).toBe(1);
    const run = JSON.parse(result.stdout);
    expect(run).toMatchObject({
      mode: 'record',
      runId: '9b40c1d5',
      agent: { name: 'claims-triage', build: 'baseline' },
      input: { claimId: 'CLM-91077' },
      worldAt: '2026-03-04',
      status: 'failed',
      outcome: null,
      error: { code: 'VALIDATION_FAILED', step: 9 },
      parent: null,
    });
    expect(run.steps).toHaveLength(9);
    expect(Object.keys(run.steps[0]).sort()).toEqual([
      'attempt',
      'index',
      'kind',
      'provenance',
      'request',
      'requestHash',
      'response',
      'sideEffect',
      'step',
    ]);
    expect(run.steps[3]).toMatchObject({
      kind: 'ocr_document',
      response: { output: { ocr_model: 'v1', fields: { damage_area_cm2: { value: 205, confidence: 0.38 } } } },
    });
  });

  it('completes the same claim on 2026-03-09, reading 2050 at 0.97 (exit 0)', async () => {
    const result = await cli([
      'record',
      'scenarios/claims-triage',
      '--claim',
      'CLM-91077',
      '--at',
      '2026-03-09',
      '--db',
      db,
      '--json',
    ]);
    expect(result.exit).toBe(0);
    const run = JSON.parse(result.stdout);
    expect(run.status).toBe('completed');
    expect(run.outcome).toMatchObject({ decision: 'approve' });
    expect(run.outcome.payout).toBeGreaterThan(0);
    expect(run.steps[3].response.output.fields.damage_area_cm2).toEqual({ value: 2050, confidence: 0.97 });
  });

  it('names the mode on the first line of its human output', async () => {
    const result = await record('--run-id', '9b40c1d5');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^record · run 9b40c1d5 · claims-triage\/baseline/);
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toMatch(/^failed at step 9: VALIDATION_FAILED: payout -234 is negative/);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('colours a terminal unless NO_COLOR is set', async () => {
    const coloured = await cli(
      ['record', 'scenarios/claims-triage', '--claim', 'CLM-91002', '--at', '2026-03-04', '--db', db],
      { tty: true, env: {} },
    );
    expect(coloured.stdout).toContain('\u001b[');
    const plain = await cli(
      ['record', 'scenarios/claims-triage', '--claim', 'CLM-91002', '--at', '2026-03-04', '--db', db],
      { tty: true, env: { NO_COLOR: '1' } },
    );
    expect(plain.stdout).not.toContain('\u001b[');
  });

  describe('bad input: a clear message with a stable code, exit 2, no stack trace, no rows', () => {
    it.each([
      [
        'an unknown claim',
        ['--claim', 'CLM-00000'],
        'INPUT_INVALID',
        /unknown claim CLM-00000; the claims are CLM-91077/,
      ],
      ['an unknown build', ['--build', 'nightly'], 'BUILD_NOT_FOUND', /builds are baseline, patched, timestamped/],
      ['a malformed date', ['--at', '4 March'], 'USAGE', /YYYY-MM-DD/],
      ['an impossible date', ['--at', '2026-02-30'], 'USAGE', /not a calendar day/],
      ['a malformed run id', ['--run-id', 'XYZ'], 'USAGE', /12 lowercase hex characters \(or 8, as older runs have\)/],
      ['a malformed seed', ['--seed', '1.5'], 'USAGE', /whole number/],
      ['an unknown option', ['--claims', 'x'], 'USAGE', /unknown option '--claims' \(Did you mean --claim\?\)/],
    ])('%s', async (_name, extra, code, message) => {
      const result = await record(...extra);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^forkpoint: ${code}: `));
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
      expect(await runCount()).toBe(0);
    });

    it('an unknown scenario directory', async () => {
      const result = await cli([
        'record',
        'scenarios/nowhere',
        '--claim',
        'CLM-91077',
        '--at',
        '2026-03-04',
        '--db',
        db,
      ]);
      expect(result).toMatchObject({ exit: 2, stdout: '' });
      expect(result.stderr).toMatch(/^forkpoint: SCENARIO_NOT_FOUND: no scenario directory at "scenarios\/nowhere"/);
    });

    it('a missing --at', async () => {
      const result = await cli(['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--db', db]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(
        /^forkpoint: USAGE: required option '--at <DATE>' not specified; see `forkpoint record --help`$/m,
      );
    });

    it('a run id that already exists', async () => {
      await record('--run-id', '9b40c1d5');
      const store = sqliteStore({ path: db });
      const before = await store.readSteps('9b40c1d5');
      await store.close();
      const result = await cli([
        'record',
        'scenarios/claims-triage',
        '--claim',
        'CLM-91002',
        '--at',
        '2026-03-04',
        '--run-id',
        '9b40c1d5',
        '--db',
        db,
      ]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: RUN_EXISTS: a run with id 9b40c1d5 already exists/);
      const after = sqliteStore({ path: db });
      expect((await after.listRuns()).map((run) => run.input)).toEqual([{ claimId: 'CLM-91077' }]);
      expect(await after.readSteps('9b40c1d5')).toEqual(before);
      await after.close();
    });

    it('a corrupt database file, left untouched', async () => {
      const junk = 'not a database '.repeat(100);
      writeFileSync(db, junk);
      const result = await record();
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: STORE_CORRUPT: .* is not a readable forkpoint database/);
    });

    it('an unreadable database path', async () => {
      const result = await cli([
        'record',
        'scenarios/claims-triage',
        '--claim',
        'CLM-91077',
        '--at',
        '2026-03-04',
        '--db',
        folder.path,
      ]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: STORE_UNREADABLE: cannot open the database/);
    });

    it('prints the error as a JSON document with --json', async () => {
      const result = await record('--claim', 'CLM-00000', '--json');
      expect(result.exit).toBe(2);
      expect(JSON.parse(result.stdout)).toEqual({
        error: { code: 'INPUT_INVALID', message: expect.stringMatching(/unknown claim/) },
      });
    });
  });
});

describe('forkpoint runs and show', () => {
  it('lists runs, and reads an empty list without creating a database', async () => {
    const empty = await cli(['runs', '--db', db, '--json']);
    expect(empty.exit).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual({ runs: [], next: null });
    await record('--run-id', '9b40c1d5');
    const listed = await cli(['runs', '--db', db, '--json']);
    expect(JSON.parse(listed.stdout).runs).toEqual([
      expect.objectContaining({ runId: '9b40c1d5', mode: 'record', status: 'failed', stepCount: 9 }),
    ]);
    expect((await cli(['runs', '--db', db])).stdout).toMatch(/9b40c1d5\s+record\s+claims-triage\/baseline/);
  });

  it('shows a run with its steps and provenance', async () => {
    await record('--run-id', '9b40c1d5');
    const shown = await cli(['show', '9b40c1d5', '--db', db, '--json']);
    expect(shown.exit).toBe(0);
    const run = JSON.parse(shown.stdout);
    expect(run.steps.map((step: { provenance: string }) => step.provenance)).toEqual(Array(9).fill('live'));
    const human = await cli(['show', '9b40c1d5', '--db', db]);
    expect(human.stdout.split('\n')[0]).toMatch(/^record · run 9b40c1d5/);
    expect(human.stdout).toMatch(
      /ocr_document#0\s+live\s+[0-9a-f]{16}\s+DOC-77120: damage_area_cm2 205 @ 0.38 \(ocr v1\)/,
    );
  });

  it('shows the checkpoint after step K', async () => {
    await record('--run-id', '9b40c1d5');
    const shown = await cli(['show', '9b40c1d5', '--step', '4', '--db', db, '--json']);
    const checkpoint = JSON.parse(shown.stdout);
    expect(checkpoint).toMatchObject({ mode: 'record', runId: '9b40c1d5', step: 4, state: 'awaitingModel' });
    expect(checkpoint.context.step).toBe(4);
    expect(checkpoint.context.messages).toHaveLength(5);
    expect(checkpoint.context.messages[4].content[0].content.fields.damage_area_cm2.value).toBe(205);
    const zero = JSON.parse((await cli(['show', '9b40c1d5', '--step', '0', '--db', db, '--json'])).stdout);
    expect(zero.context.messages).toHaveLength(1);
    const human = await cli(['show', '9b40c1d5', '--step', '4', '--db', db]);
    expect(human.stdout).toMatch(/checkpoint after step 4: awaitingModel/);
  });

  it.each([
    [['show', '9b40c1d5', '--step', '99'], 'STEP_OUT_OF_RANGE'],
    [['show', '12345678'], 'RUN_NOT_FOUND'],
    [['show', 'nope'], 'USAGE'],
    [['show'], 'USAGE'],
    [['frobnicate'], 'USAGE'],
  ])('refuses %j with exit 2', async (args, code) => {
    await record('--run-id', '9b40c1d5');
    const result = await cli([...args, '--db', db]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^forkpoint: ${code}: `));
  });

  it('answers RUN_NOT_FOUND for show on a database that does not exist, without creating it', async () => {
    const result = await cli(['show', '9b40c1d5', '--db', join(folder.path, 'absent.db')]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/RUN_NOT_FOUND/);
    expect((await cli(['runs', '--db', join(folder.path, 'absent.db')])).stdout).toMatch(/no runs yet/);
  });
});
