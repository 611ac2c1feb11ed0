import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-replay-cli-');
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
    '--db',
    db,
  ]);
  expect(recorded.exit).toBe(1);
});
afterEach(() => {
  folder.cleanup();
});

const json = async (args: string[]) => {
  const result = await cli([...args, '--db', db, '--json']);
  return { exit: result.exit, body: JSON.parse(result.stdout), stderr: result.stderr };
};

describe('forkpoint replay', () => {
  it('replays baseline strictly: failed at step 9, nine recorded steps with the recording’s hashes (exit 1)', async () => {
    const recorded = await json(['show', '9b40c1d5']);
    const { exit, body } = await json(['replay', '9b40c1d5', '--build', 'baseline', '--strict']);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      mode: 'replay:strict',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', step: 9 },
      sourceRunId: '9b40c1d5',
    });
    expect(body.steps.map((step: { provenance: string }) => step.provenance)).toEqual(Array(9).fill('recorded'));
    expect(body.steps.map((step: { requestHash: string }) => step.requestHash)).toEqual(
      recorded.body.steps.map((step: { requestHash: string }) => step.requestHash),
    );
  });

  it('replays patched: completed with decision refer (exit 0)', async () => {
    const { exit, body } = await json(['replay', '9b40c1d5', '--build', 'patched']);
    expect(exit).toBe(0);
    expect(body).toMatchObject({ mode: 'replay:strict', status: 'completed', outcome: { decision: 'refer' } });
  });

  it('replays timestamped: diverged at step 1 on model#0, changed, diff on the system prompt (exit 1)', async () => {
    const { exit, body } = await json(['replay', '9b40c1d5', '--build', 'timestamped', '--strict']);
    expect(exit).toBe(1);
    expect(body.status).toBe('diverged');
    expect(body.divergence).toMatchObject({
      step: 1,
      kind: 'model',
      index: 0,
      classification: 'changed',
      changed: ['system'],
    });
    expect(body.divergence.diff[0].path).toBe('system');
    // The same plain object as the stored finding: no run id, code or stack from the error it is in the library.
    expect(Object.keys(body.divergence)).toEqual([
      'classification',
      'step',
      'kind',
      'index',
      'actualHash',
      'recordedHashes',
      'changed',
      'diff',
      'message',
    ]);
    expect(body.divergence).toEqual(body.findings[0]);
    expect((await json(['show', body.runId])).body.findings).toEqual([body.divergence]);
    const human = await cli(['replay', '9b40c1d5', '--build', 'timestamped', '--db', db]);
    const lines = human.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^replay:strict · run [0-9a-f]{12} · claims-triage\/timestamped .* over the recorded observations of run 9b40c1d5/,
    );
    expect(human.stdout).toMatch(
      /divergence: model#0 \(step 1\): request hash [0-9a-f]{16} not in cassette \(recorded: \[[0-9a-f]{16}\]\); changed: system/,
    );
    expect(human.stdout).toMatch(/ {4}system: ".*" -> ".*Current time: /);
  });

  it('in fidelity mode, reports the divergence and exits 0: the report is the product', async () => {
    const { exit, body } = await json(['replay', '9b40c1d5', '--build', 'timestamped', '--fidelity']);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      mode: 'replay:fidelity',
      status: 'diverged',
      divergence: { kind: 'model', index: 0 },
    });
    const live = await json([
      'replay',
      '9b40c1d5',
      '--build',
      'timestamped',
      '--fidelity',
      '--on-miss',
      'live',
      '--side-effects',
      'estimate_repair=live',
    ]);
    expect(live.exit).toBe(1);
    expect(live.body.steps.every((step: { provenance: string }) => step.provenance === 'live')).toBe(true);
  });

  it('going live in fidelity mode, reports each fact once: the positions that diverged are not listed again as dropped calls', async () => {
    const { body } = await json([
      'replay',
      '9b40c1d5',
      '--build',
      'timestamped',
      '--fidelity',
      '--on-miss',
      'live',
      '--side-effects',
      'estimate_repair=simulate',
    ]);
    const facts = body.findings.map(
      (finding: { classification: string; kind: string; index: number }) =>
        `${finding.classification} ${finding.kind}#${finding.index}`,
    );
    expect(facts).toEqual([0, 1, 2, 3, 4].map((index) => `changed model#${index}`));
    const human = await cli([
      'replay',
      '9b40c1d5',
      '--build',
      'timestamped',
      '--fidelity',
      '--on-miss',
      'live',
      '--side-effects',
      'estimate_repair=simulate',
      '--db',
      db,
    ]);
    expect(human.stdout.match(/^divergence: /gm)).toHaveLength(5);
    expect(human.stdout).not.toMatch(/dropped-call/);
  });

  it('replays an exported cassette file with the same result as the database', async () => {
    const file = join(folder.path, 'incident.cassette.json');
    const exported = await cli(['export', '9b40c1d5', '-o', file, '--db', db]);
    expect(exported.exit).toBe(0);
    expect(exported.stdout).toMatch(
      /^export · run 9b40c1d5 · full tier, sealed \(encrypted with the store's key for its expiry day\) · 9 entries, [\d.]+ KB/,
    );
    // Sealed: the payloads are not in the file.
    expect(readFileSync(file, 'utf8')).not.toContain('CLM-91077');
    const fromFile = await json([
      'replay',
      '--cassette',
      file,
      '--scenario',
      'scenarios/claims-triage',
      '--build',
      'baseline',
    ]);
    const fromDb = await json(['replay', '9b40c1d5', '--build', 'baseline']);
    expect(fromFile.exit).toBe(fromDb.exit);
    expect(fromFile.body.steps).toEqual(fromDb.body.steps);
    expect([fromFile.body.status, fromFile.body.error]).toEqual([fromDb.body.status, fromDb.body.error]);
    expect(fromFile.body.sourceCassette).toBe(file);
    // Each seal draws a fresh nonce: the same cassette, sealed again, reads the same.
    const again = join(folder.path, 'again.cassette.json');
    writeFileSync(again, (await cli(['export', '9b40c1d5', '--db', db])).stdout);
    expect(readFileSync(again, 'utf8')).not.toBe(readFileSync(file, 'utf8'));
    expect(
      (await json(['replay', '--cassette', again, '--scenario', 'scenarios/claims-triage', '--build', 'baseline'])).body
        .steps,
    ).toEqual(fromDb.body.steps);
  });

  it('lists replays as what they are, newest first', async () => {
    await json(['replay', '9b40c1d5', '--build', 'patched']);
    const { body } = await json(['runs']);
    expect(body.runs.map((run: { mode: string; sourceRunId: string | null }) => [run.mode, run.sourceRunId])).toEqual([
      ['replay:strict', '9b40c1d5'],
      ['record', null],
    ]);
  });

  describe('bad cassettes and options: exit 2, nothing written', () => {
    const cassetteWith = async (edit: (text: string) => string): Promise<string> => {
      const file = join(folder.path, 'edited.json');
      await cli(['export', '9b40c1d5', '--plaintext', '-o', file, '--db', db]);
      writeFileSync(file, edit(readFileSync(file, 'utf8')));
      return file;
    };

    it.each([
      ['a truncated cassette', (text: string) => text.slice(0, 200), /not valid JSON/],
      [
        'an unknown format version',
        (text: string) => text.replace('forkpoint-cassette/2', 'forkpoint-cassette/3'),
        /format is "forkpoint-cassette\/3"/,
      ],
      [
        'a cassette from another agent',
        (text: string) => text.replace('"name": "claims-triage"', '"name": "loan-underwriter"'),
        /records agent loan-underwriter/,
      ],
    ])('%s is CASSETTE_INVALID', async (_name, edit, message) => {
      const file = await cassetteWith(edit);
      const result = await cli([
        'replay',
        '--cassette',
        file,
        '--scenario',
        'scenarios/claims-triage',
        '--build',
        'baseline',
        '--db',
        db,
      ]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: CASSETTE_INVALID: /);
      expect(result.stderr).toMatch(message);
      expect((await json(['runs'])).body.runs).toHaveLength(1);
    });

    it.each([
      [['replay', '9b40c1d5', '--strict', '--on-miss', 'live'], 'USAGE', /only with --fidelity/],
      [
        ['replay', '9b40c1d5', '--strict', '--fidelity'],
        'USAGE',
        /option '--fidelity' cannot be used with option '--strict'/,
      ],
      [['replay', '--cassette', 'x.json'], 'USAGE', /needs --scenario/],
      [['replay', '9b40c1d5', '--build', 'nightly'], 'BUILD_NOT_FOUND', /builds are/],
      [['replay', 'abcdef12'], 'RUN_NOT_FOUND', /no run abcdef12/],
      [
        ['replay', '--cassette', 'missing.json', '--scenario', 'scenarios/claims-triage'],
        'CASSETTE_INVALID',
        /cannot read cassette missing.json/,
      ],
    ])('%j is %s', async (args, code, message) => {
      const result = await cli([...args, '--db', db]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^forkpoint: ${code}: `));
      expect(result.stderr).toMatch(message);
    });
  });
});

describe('forkpoint reexecute', () => {
  it('runs the input again at 2026-03-09 and says it is a second run, not a replay', async () => {
    const { exit, body } = await json([
      'reexecute',
      '9b40c1d5',
      '--at',
      '2026-03-09',
      '--build',
      'baseline',
      '--side-effects',
      'estimate_repair=simulate',
    ]);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      mode: 'reexecution',
      status: 'completed',
      sourceRunId: '9b40c1d5',
      worldAt: '2026-03-09',
    });
    expect(body.steps[5]).toMatchObject({ kind: 'estimate_repair', provenance: 'simulated', sideEffect: false });
    const human = await cli(['reexecute', '9b40c1d5', '--at', '2026-03-09', '--db', db]);
    expect(human.stdout.split('\n')[0]).toMatch(
      /^reexecution · run [0-9a-f]{12} · a second run of run 9b40c1d5's input against the world of 2026-03-09, not a replay/,
    );
  });

  it('needs --at', async () => {
    const result = await cli(['reexecute', '9b40c1d5', '--db', db]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(
      /^forkpoint: USAGE: required option '--at <DATE>' not specified; see `forkpoint reexecute --help`$/m,
    );
  });
});
