import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

const MERGE = '{"fields":{"damage_area_cm2":{"value":2050,"confidence":0.97}}}';
// estimate_repair registers an estimate: a fork that goes past it asks its simulator by name.
const SIMULATE = ['--side-effects', 'estimate_repair=simulate'];
let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-fork-cli-');
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

const run = (args: string[]) => cli([...args, '--db', db]);
const json = async (args: string[]) => {
  const result = await run([...args, '--json']);
  return { exit: result.exit, body: JSON.parse(result.stdout) };
};

describe('forkpoint fork', () => {
  it('forks at step 4 with the corrected OCR value and completes with an approval', async () => {
    const { exit, body } = await json(['fork', '9b40c1d5', '--at-step', '4', '--tool-merge', MERGE, ...SIMULATE]);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      mode: 'fork',
      parent: { runId: '9b40c1d5', atStep: 4 },
      status: 'completed',
      outcome: { decision: 'approve' },
    });
    expect(body.outcome.payout).toBeGreaterThan(0);
    expect(body.steps.map((step: { provenance: string }) => step.provenance)).toEqual([
      'inherited',
      'inherited',
      'inherited',
      'override',
      'live',
      'simulated',
      'live',
      'live',
      'live',
    ]);
    expect(body.sideEffects).toEqual({ default: 'refuse', tools: { estimate_repair: 'simulate' } });
    const human = await run(['fork', '9b40c1d5', '--at-step', '4', '--tool-merge', MERGE, ...SIMULATE]);
    expect(human.stdout.split('\n')[0]).toMatch(
      /^fork · run [0-9a-f]{12} · claims-triage\/baseline .* forked from run 9b40c1d5 at step 4/,
    );
  });

  it('compares the branches: first divergence at step 4, failed against completed', async () => {
    const fork = await json(['fork', '9b40c1d5', '--at-step', '4', '--tool-merge', MERGE, ...SIMULATE]);
    const { exit, body } = await json(['compare', '9b40c1d5', fork.body.runId]);
    expect(exit).toBe(0);
    expect(body.firstDivergence).toEqual({ step: 4, kind: 'ocr_document', index: 0, on: 'response' });
    expect(body.a).toMatchObject({
      runId: '9b40c1d5',
      mode: 'record',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED' },
    });
    expect(body.b).toMatchObject({ mode: 'fork', status: 'completed', outcome: { decision: 'approve' } });
    expect(body.steps).toHaveLength(9);
    const human = await run(['compare', '9b40c1d5', fork.body.runId]);
    expect(human.stdout).toMatch(/first divergence: step 4, ocr_document#0, on the response/);
  });

  it('forks at step 1 with a system prompt from a file, or another model, recorded as the override', async () => {
    const file = join(folder.path, 'prompt.txt');
    writeFileSync(file, 'Refer any claim whose OCR confidence is low.');
    const prompt = await json(['fork', '9b40c1d5', '--at-step', '1', '--system-prompt-file', file]);
    expect(prompt.body.parent.override).toEqual({
      kind: 'system-prompt',
      system: 'Refer any claim whose OCR confidence is low.',
      file,
    });
    expect(prompt.body.steps[0]).toMatchObject({
      provenance: 'live',
      request: { system: 'Refer any claim whose OCR confidence is low.' },
    });
    const model = await json(['fork', '9b40c1d5', '--at-step', '1', '--model', 'claude-sonnet-5']);
    expect(model.body.parent.override).toEqual({ kind: 'model', model: 'claude-sonnet-5' });
    expect(model.body.steps[0].request.model).toBe('claude-sonnet-5');
  });

  it('makes sibling forks with --repeats and counts their outcomes', async () => {
    const { exit, body } = await json([
      'fork',
      '9b40c1d5',
      '--at-step',
      '4',
      '--tool-merge',
      MERGE,
      '--repeats',
      '3',
      '--seed',
      '10',
      ...SIMULATE,
    ]);
    expect(exit).toBe(0);
    expect(body).toMatchObject({ mode: 'fork', repeats: 3, histogram: { 'completed: approve': 3 } });
    expect(body.runs.map((fork: { seed: number }) => fork.seed)).toEqual([10, 11, 12]);
    const human = await run([
      'fork',
      '9b40c1d5',
      '--at-step',
      '4',
      '--tool-merge',
      MERGE,
      '--repeats',
      '2',
      ...SIMULATE,
    ]);
    expect(human.stdout).toMatch(/outcomes of 2 sibling forks:\n {2}completed: approve +2\/2/);
  });

  it.each([
    [['--at-step', '99', '--tool-merge', MERGE], 'STEP_OUT_OF_RANGE', /has steps 1 to 9/],
    [
      ['--at-step', '3', '--tool-merge', MERGE],
      'OVERRIDE_MISMATCH',
      /step 3 of run 9b40c1d5 is a model step .*\. At a model step use --model-response, --system-prompt or --model/,
    ],
    [
      ['--at-step', '4', '--model', 'claude-sonnet-5'],
      'OVERRIDE_MISMATCH',
      /is a tool step .*\. At a tool step use --tool-result, --tool-merge, --tool-patch or --tool-error$/m,
    ],
    [['--at-step', '4'], 'USAGE', /exactly one thing/],
    [['--at-step', '4', '--model', 'x', '--tool-result', '{}'], 'USAGE', /exactly one thing/],
    [['--at-step', '4', '--tool-merge', '{"fields":'], 'OVERRIDE_INVALID', /--tool-merge is not valid JSON/],
    [['--tool-merge', MERGE], 'USAGE', /required option '--at-step <N>' not specified/],
    [['--at-step', '1', '--system-prompt-file', 'no/such/file'], 'USAGE', /cannot read the system prompt file/],
  ])('refuses %j with %s (exit 2), writing nothing', async (args, code, message) => {
    const result = await run(['fork', '9b40c1d5', ...args]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^forkpoint: ${code}: `));
    expect(result.stderr).toMatch(message);
    expect((await json(['runs'])).body.runs).toHaveLength(1);
  });
});

describe('forkpoint tree and runs', () => {
  it('shows forks, replays and re-executions under the run they came from, and names it in the runs list', async () => {
    const fork = await json(['fork', '9b40c1d5', '--at-step', '4', '--tool-merge', MERGE, ...SIMULATE]);
    const forkOfFork = await json(['fork', fork.body.runId, '--at-step', '9', '--model', 'claude-sonnet-5']);
    const replay = await json(['replay', '9b40c1d5', '--build', 'patched']);
    const tree = await json(['tree', fork.body.runId]);
    expect(tree.body.ancestors.map((ancestor: { runId: string }) => ancestor.runId)).toEqual(['9b40c1d5']);
    expect(tree.body.tree.run.runId).toBe(fork.body.runId);
    expect(tree.body.tree.children).toEqual([
      expect.objectContaining({ relation: 'fork', override: { kind: 'model', model: 'claude-sonnet-5' } }),
    ]);
    const human = await run(['tree', '9b40c1d5']);
    expect(human.stdout).toMatch(
      new RegExp(
        `└ fork at step 4 \\(tool-merge: replace fields.damage_area_cm2.confidence 0.38 -> 0.97, replace fields.damage_area_cm2.value 205 -> 2050\\): ${fork.body.runId} fork`,
      ),
    );
    expect(human.stdout).toMatch(
      new RegExp(
        ` {4}└ fork at step 9 \\(model: replace model "claude-opus-5" -> "claude-sonnet-5"\\): ${forkOfFork.body.runId}`,
      ),
    );
    expect(human.stdout).toMatch(new RegExp(`└ replay: ${replay.body.runId} replay:strict patched`));
    // Newest first, each with the run it came from: a page may not hold that run.
    const runs = await run(['runs']);
    const rows = runs.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s{2,}/));
    expect(rows.map((row) => [row[0], row[6]])).toEqual([
      [replay.body.runId, '9b40c1d5'],
      [forkOfFork.body.runId, `${fork.body.runId}@9`],
      [fork.body.runId, '9b40c1d5@4'],
      ['9b40c1d5', '-'],
    ]);
    // What each paid, in USD: the replay nothing, a fork only its own live steps.
    const paid = async (runId: string): Promise<string> =>
      ((await json(['show', runId])).body as { cost: { paid: { usd: number } } }).cost.paid.usd.toFixed(6);
    expect(rows.map((row) => row[7])).toEqual([
      '0.000000',
      await paid(forkOfFork.body.runId),
      await paid(fork.body.runId),
      await paid('9b40c1d5'),
    ]);
    expect(Number(rows[3]?.[7])).toBeGreaterThan(Number(rows[2]?.[7]));
  });
});
