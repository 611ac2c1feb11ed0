import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECORD_INCIDENT, cli, tempFolder } from '../support/cli-harness.js';

const PATCH = '[{"op":"replace","path":"/fields/damage_area_cm2/value","value":2050}]';
// estimate_repair registers an estimate: a fork that goes past it asks its simulator by name.
const SIMULATE = ['--side-effects', 'estimate_repair=simulate'];
const POLICY_FIRST = JSON.stringify({
  id: 'msg_policy_first',
  model: 'claude-opus-5',
  content: [
    { type: 'text', text: 'I will check the policy before reading the form.' },
    { type: 'tool_use', id: 'toolu_policy', name: 'fetch_policy', input: { policy_id: 'POL-5531' } },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: 602, outputTokens: 30 },
});

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-fork-overrides-cli-');
  db = join(folder.path, 'forkpoint.db');
  const recorded = await cli([...RECORD_INCIDENT, '--db', db]);
  expect(recorded.stderr).toBe('');
});
afterEach(() => {
  folder.cleanup();
});

const run = (args: string[]) => cli([...args, '--db', db]);
const json = async (args: string[]) => {
  const result = await run([...args, '--json']);
  return { exit: result.exit, body: JSON.parse(result.stdout), stderr: result.stderr };
};
type Step = { kind: string; index: number; provenance: string; response: unknown; request: unknown };

describe('forkpoint fork with the new override flags', () => {
  it('--tool-patch applies a JSON Patch to step 4, and tree describes it by what it changed', async () => {
    const { exit, body } = await json(['fork', '9b40c1d5', '--at-step', '4', '--tool-patch', PATCH, ...SIMULATE]);
    expect(exit).toBe(0);
    expect(body.parent).toEqual({
      runId: '9b40c1d5',
      atStep: 4,
      override: { kind: 'tool-patch', operations: JSON.parse(PATCH) },
      changes: [{ path: 'fields.damage_area_cm2.value', before: '205', after: '2050' }],
    });
    expect(body.steps[3]).toMatchObject({
      provenance: 'override',
      response: { output: { fields: { damage_area_cm2: { value: 2050, confidence: 0.38 } } }, isError: false },
    });
    const tree = await run(['tree', '9b40c1d5']);
    expect(tree.exit).toBe(0);
    expect(tree.stdout).toContain(
      `└ fork at step 4 (tool-patch: replace fields.damage_area_cm2.value 205 -> 2050): ${body.runId} fork`,
    );
    const shown = await run(['show', body.runId]);
    expect(shown.stdout.split('\n')[0]).toContain(
      'forked from run 9b40c1d5 at step 4 (tool-patch: replace fields.damage_area_cm2.value 205 -> 2050)',
    );
  });

  it('--tool-error makes the OCR call of step 4 fail with that message', async () => {
    const { exit, body } = await json([
      'fork',
      '9b40c1d5',
      '--at-step',
      '4',
      '--tool-error',
      'OCR service timed out',
      ...SIMULATE,
    ]);
    expect(exit).toBe(0);
    expect(body).toMatchObject({ status: 'completed', outcome: { decision: 'refer' } });
    expect(body.parent.override).toEqual({ kind: 'tool-error', message: 'OCR service timed out' });
    expect(body.steps[3]).toMatchObject({
      kind: 'ocr_document',
      provenance: 'override',
      response: { output: { error: 'OCR service timed out' }, isError: true },
    });
    expect(body.steps.slice(0, 3).map((step: Step) => step.provenance)).toEqual([
      'inherited',
      'inherited',
      'inherited',
    ]);
  });

  it('--model-response replaces the model turn of step 3: the model asks for the policy first', async () => {
    const { body } = await json(['fork', '9b40c1d5', '--at-step', '3', '--model-response', POLICY_FIRST]);
    expect(body.parent.override).toEqual({ kind: 'model-response', response: JSON.parse(POLICY_FIRST) });
    expect(body.steps[2]).toMatchObject({
      kind: 'model',
      index: 1,
      provenance: 'override',
      response: JSON.parse(POLICY_FIRST),
    });
    expect(body.steps[3]).toMatchObject({ kind: 'fetch_policy', index: 0, provenance: 'live' });
  });

  it('--override takes any kind as one JSON object, a model-patch too', async () => {
    const error = await json([
      'fork',
      '9b40c1d5',
      '--at-step',
      '4',
      '--override',
      '{"kind":"tool-error","message":"timed out"}',
    ]);
    expect(error.body.parent.override).toEqual({ kind: 'tool-error', message: 'timed out' });
    expect(error.body.steps[3].response).toEqual({ output: { error: 'timed out' }, isError: true });
    const patch = await json([
      'fork',
      '9b40c1d5',
      '--at-step',
      '5',
      '--override',
      '{"kind":"model-patch","operations":[{"op":"replace","path":"/content/2/input/damage_area_cm2","value":2050}]}',
      ...SIMULATE,
    ]);
    expect(patch.body.steps[4]).toMatchObject({ provenance: 'override' });
    expect(patch.body.steps[5]).toMatchObject({
      kind: 'estimate_repair',
      request: { input: { damage_area_cm2: 2050 } },
    });
    expect(patch.body.parent.changes).toEqual([
      { path: 'content[2].input.damage_area_cm2', before: '205', after: '2050' },
    ]);
    expect((await json(['runs'])).body.runs).toHaveLength(3);
  });
});

describe('forkpoint fork refuses a malformed override: exit 2, one line, nothing written', () => {
  it.each<[string, string[], RegExp]>([
    [
      'a misspelt model field',
      ['--at-step', '5', '--override', '{"kind":"model","modelId":"x"}'],
      /no field "modelId" \(did you mean "model"\?\)/,
    ],
    [
      'a system prompt under another name',
      ['--at-step', '1', '--override', '{"kind":"system-prompt","prompt":"Refer it."}'],
      /no field "prompt"/,
    ],
    [
      'a system prompt that is a number',
      ['--at-step', '1', '--override', '{"kind":"system-prompt","system":42}'],
      /system-prompt\.system must be a string, got 42/,
    ],
    [
      'a misspelt kind',
      ['--at-step', '1', '--override', '{"kind":"sytem-prompt","system":"Refer it."}'],
      /unknown override kind "sytem-prompt" \(did you mean "system-prompt"\?\)/,
    ],
    [
      'an unknown kind at a tool step',
      ['--at-step', '4', '--override', '{"kind":"tool-replace","output":{}}'],
      /unknown override kind "tool-replace"/,
    ],
    [
      'a `__proto__` field',
      ['--at-step', '5', '--override', '{"kind":"model","model":"x","__proto__":{"model":"y"}}'],
      /no field "__proto__"/,
    ],
    [
      'JSON that is no object',
      ['--at-step', '4', '--override', '[{"kind":"tool-error","message":"x"}]'],
      /an override must be an object with a "kind"/,
    ],
    ['JSON null', ['--at-step', '4', '--override', 'null'], /an override must be an object/],
    ['bad JSON', ['--at-step', '4', '--override', '{"kind":"tool-error",'], /--override is not valid JSON/],
    [
      'a JSON Patch that is one operation, not a list',
      ['--at-step', '4', '--tool-patch', PATCH.slice(1, -1)],
      /tool-patch\.operations must be a non-empty list of JSON Patch operations/,
    ],
    ['an empty JSON Patch', ['--at-step', '4', '--tool-patch', '[]'], /non-empty list/],
    [
      'an operation RFC 6902 does not define',
      ['--at-step', '4', '--tool-patch', '[{"op":"delete","path":"/text"}]'],
      /operations\[0\]\.op must be one of add, remove, replace, move, copy, test/,
    ],
    [
      'a path that is no JSON Pointer',
      ['--at-step', '4', '--tool-patch', '[{"op":"remove","path":"text"}]'],
      /is not a JSON Pointer/,
    ],
    ['a JSON Patch that is bad JSON', ['--at-step', '4', '--tool-patch', '[{"op":'], /--tool-patch is not valid JSON/],
    [
      'a model response without its fields',
      ['--at-step', '3', '--model-response', '{"content":[]}'],
      /model-response\.response must be a model response/,
    ],
    ['a blank tool error', ['--at-step', '4', '--tool-error', '   '], /tool-error\.message must not be empty/],
    ['an empty model id', ['--at-step', '5', '--model', ''], /model\.model must not be empty/],
    [
      'an empty merge patch (changes nothing)',
      ['--at-step', '4', '--tool-merge', '{}'],
      /changes nothing at step 4 of run 9b40c1d5/,
    ],
    [
      'the same model (changes nothing)',
      ['--at-step', '5', '--model', 'claude-opus-5'],
      /the model override changes nothing/,
    ],
    [
      'a JSON Patch whose path is not there',
      ['--at-step', '4', '--tool-patch', '[{"op":"replace","path":"/fields/area","value":1}]'],
      /JSON Patch operation 0 \(replace \/fields\/area\): there is no "area" to replace/,
    ],
  ])('%s', async (_name, args, message) => {
    const before = await json(['show', '9b40c1d5']);
    const result = await run(['fork', '9b40c1d5', ...args]);
    expect(result.exit).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^forkpoint: OVERRIDE_INVALID: [^\n]+\n$/);
    expect(result.stderr).toMatch(message);
    const runs = await json(['runs']);
    expect(runs.body.runs.map((summary: { runId: string }) => summary.runId)).toEqual(['9b40c1d5']);
    expect((await json(['show', '9b40c1d5'])).body).toEqual(before.body);
  });

  it('says OVERRIDE_MISMATCH, not OVERRIDE_INVALID, for a valid override at the wrong kind of step', async () => {
    const result = await run([
      'fork',
      '9b40c1d5',
      '--at-step',
      '4',
      '--override',
      '{"kind":"model-response","response":' + POLICY_FIRST + '}',
    ]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: OVERRIDE_MISMATCH: step 4 of run 9b40c1d5 is a tool step/);
    expect((await json(['runs'])).body.runs).toHaveLength(1);
  });
});
