import { describe, expect, it } from 'vitest';
import type { ForkOverride } from '../../src/fork/index.js';
import type { JsonObject, JsonValue } from '../../src/json/index.js';
import type { ModelResponse } from '../../src/conversation/index.js';
import { describeOverride } from '../../src/fork/index.js';
import type { OverrideTarget } from '../../src/fork/index.js';
import { applyOverride, editOverride } from '../../src/fork/index.js';
import { thrown } from '../support/thrown.js';

const OCR = {
  document_id: 'DOC-77120',
  ocr_model: 'v1',
  fields: { damage_area_cm2: { value: 205, confidence: 0.38 }, panels_affected: { value: 1, confidence: 0.93 } },
  text: 'ASSESSOR REPORT',
};
type Ocr = typeof OCR;

const TURN: ModelResponse = {
  id: 'msg_1',
  model: 'claude-opus-5',
  content: [
    { type: 'thinking', thinking: 'Next: ocr.', signature: 'sig_1' },
    { type: 'text', text: "I'll read the assessor's form." },
    { type: 'tool_use', id: 'toolu_1', name: 'ocr_document', input: { document_id: 'DOC-77120' } },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: 602, outputTokens: 40 },
};

const context = { system: 'You triage claims.', model: 'claude-opus-5' };
const toolStep = (output: JsonValue = structuredClone(OCR), isError = false): OverrideTarget => ({
  runId: '9b40c1d5',
  step: 4,
  kind: 'ocr_document',
  index: 0,
  context,
  recorded: { type: 'tool', response: { output, isError } },
});
const modelStep = (response: ModelResponse = structuredClone(TURN)): OverrideTarget => ({
  runId: '9b40c1d5',
  step: 3,
  kind: 'model',
  index: 1,
  context,
  recorded: { type: 'model', response },
});
const refusal = (override: ForkOverride, target: OverrideTarget) => thrown(() => applyOverride(override, target));

describe('applyOverride at a tool step', () => {
  it('tool-result replaces the output, and says what changed field by field', () => {
    const output = { ...OCR, fields: { ...OCR.fields, damage_area_cm2: { value: 2050, confidence: 0.38 } } };
    const applied = applyOverride({ kind: 'tool-result', output }, toolStep());
    expect(applied).toEqual({
      at: 'tool',
      response: { output, isError: false },
      changes: [{ path: 'fields.damage_area_cm2.value', before: '205', after: '2050' }],
    });
  });

  it('tool-merge merges into the recorded output (RFC 7386)', () => {
    const applied = applyOverride(
      { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } }, text: null } },
      toolStep(),
    );
    expect(applied.at === 'tool' && applied.response).toEqual({
      output: {
        document_id: 'DOC-77120',
        ocr_model: 'v1',
        fields: { ...OCR.fields, damage_area_cm2: { value: 2050, confidence: 0.97 } },
      },
      isError: false,
    });
    expect(applied.changes).toEqual([
      { path: 'fields.damage_area_cm2.confidence', before: '0.38', after: '0.97' },
      { path: 'fields.damage_area_cm2.value', before: '205', after: '2050' },
      { path: 'text', before: '"ASSESSOR REPORT"', after: '(absent)' },
    ]);
  });

  it('tool-patch applies a JSON Patch (RFC 6902) to the recorded output', () => {
    const applied = applyOverride(
      {
        kind: 'tool-patch',
        operations: [
          { op: 'test', path: '/fields/damage_area_cm2/value', value: 205 },
          { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 },
          { op: 'add', path: '/notes', value: 'rescanned' },
        ],
      },
      toolStep(),
    );
    expect(applied.at === 'tool' && applied.response.output).toEqual({
      ...OCR,
      fields: { ...OCR.fields, damage_area_cm2: { value: 2050, confidence: 0.38 } },
      notes: 'rescanned',
    });
    expect(applied.changes).toEqual([
      { path: 'fields.damage_area_cm2.value', before: '205', after: '2050' },
      { path: 'notes', before: '(absent)', after: '"rescanned"' },
    ]);
  });

  it('tool-error makes the step an error with that message', () => {
    const applied = applyOverride({ kind: 'tool-error', message: 'OCR service timed out' }, toolStep({ a: 1 }));
    expect(applied).toEqual({
      at: 'tool',
      response: { output: { error: 'OCR service timed out' }, isError: true },
      changes: [
        { path: 'isError', before: 'false', after: 'true' },
        { path: 'a', before: '1', after: '(absent)' },
        { path: 'error', before: '(absent)', after: '"OCR service timed out"' },
      ],
    });
  });

  it('turning a recorded error into the same output is a change: the step no longer fails', () => {
    const applied = applyOverride(
      { kind: 'tool-result', output: { error: 'timed out' } },
      toolStep({ error: 'timed out' }, true),
    );
    expect(applied).toEqual({
      at: 'tool',
      response: { output: { error: 'timed out' }, isError: false },
      changes: [{ path: 'isError', before: 'true', after: 'false' }],
    });
  });

  it.each<[string, ForkOverride, OverrideTarget]>([
    ['an empty merge patch', { kind: 'tool-merge', patch: {} }, toolStep()],
    [
      'a merge patch that sets what is there',
      { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 205 } } } },
      toolStep(),
    ],
    [
      'the recorded output again, keys in another order',
      {
        kind: 'tool-result',
        output: { text: OCR.text, fields: OCR.fields, ocr_model: 'v1', document_id: 'DOC-77120' },
      },
      toolStep(),
    ],
    [
      'a JSON Patch that only tests',
      { kind: 'tool-patch', operations: [{ op: 'test', path: '/ocr_model', value: 'v1' }] },
      toolStep(),
    ],
    [
      'a JSON Patch that puts the value back',
      {
        kind: 'tool-patch',
        operations: [
          { op: 'replace', path: '/ocr_model', value: 'v2' },
          { op: 'replace', path: '/ocr_model', value: 'v1' },
        ],
      },
      toolStep(),
    ],
    ['the recorded error again', { kind: 'tool-error', message: 'timed out' }, toolStep({ error: 'timed out' }, true)],
  ])('%s changes nothing: OVERRIDE_INVALID', (_name, override, target) => {
    const error = refusal(override, target);
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(error.message).toMatch(/changes nothing at step 4 of run 9b40c1d5.*forkpoint resume/);
  });

  it('a JSON Patch that cannot apply is OVERRIDE_INVALID naming the operation, and the recorded output is untouched', () => {
    const recorded = structuredClone(OCR);
    const error = refusal(
      {
        kind: 'tool-patch',
        operations: [
          { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 },
          { op: 'remove', path: '/fields/area' },
        ],
      },
      toolStep(recorded),
    );
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(error.message).toMatch(/JSON Patch operation 1 \(remove \/fields\/area\): there is no "area" to remove/);
    expect(recorded).toEqual(OCR);
    expect(
      refusal(
        {
          kind: 'tool-patch',
          operations: [
            { op: 'test', path: '/ocr_model', value: 'v2' },
            { op: 'remove', path: '/text' },
          ],
        },
        toolStep(),
      ).code,
    ).toBe('OVERRIDE_INVALID');
  });

  it("injects a copy of a tool-result output, not the override's own object, and leaves the recorded output as it was", () => {
    const recorded = structuredClone(OCR);
    const target = toolStep(recorded);
    const override: ForkOverride = { kind: 'tool-result', output: { nested: { value: 1 } } };
    const applied = applyOverride(override, target);
    if (applied.at !== 'tool') throw new Error('expected a tool answer');
    expect(applied.response.output).not.toBe(override.output);
    (applied.response.output as { nested: { value: number } }).nested.value = 2;
    expect(override).toEqual({ kind: 'tool-result', output: { nested: { value: 1 } } });
    applyOverride({ kind: 'tool-merge', patch: { fields: { damage_area_cm2: null }, notes: 'x' } }, target);
    expect(recorded).toEqual(OCR);
  });

  it.each<ForkOverride>([
    { kind: 'model-response', response: TURN },
    { kind: 'model-patch', operations: [{ op: 'replace', path: '/stopReason', value: 'end_turn' }] },
    { kind: 'system-prompt', system: 'Refer it.' },
    { kind: 'model', model: 'claude-sonnet-5' },
  ])('a %j override at a tool step is OVERRIDE_MISMATCH, pointing at the tool kinds', (override) => {
    const error = refusal(override, toolStep());
    expect(error.code).toBe('OVERRIDE_MISMATCH');
    expect(error.message).toMatch(
      new RegExp(
        `step 4 of run 9b40c1d5 is a tool step \\(ocr_document#0\\); a ${override.kind} override needs a model step\\. At a tool step use a tool-result, tool-merge, tool-patch or tool-error override`,
      ),
    );
    // The library's words: the CLI adds its flags from the remedy in the details.
    expect(error.message).not.toMatch(/--/);
    expect(error.details.remedy).toEqual({ kind: 'override-for-step', step: 'tool' });
  });
});

describe('applyOverride at a model step', () => {
  const policyFirst: ModelResponse = {
    ...TURN,
    content: [
      { type: 'text', text: 'Policy first.' },
      { type: 'tool_use', id: 'toolu_2', name: 'fetch_policy', input: { policy_id: 'POL-5531' } },
    ],
  };

  it('model-response replaces the response, and the changes compare what the model said, not its ids', () => {
    const applied = applyOverride({ kind: 'model-response', response: policyFirst }, modelStep());
    expect(applied.at === 'model' && applied.response).toEqual(policyFirst);
    expect(applied.changes.map((change) => change.path)).toEqual([
      'content[0].text',
      'content[0].thinking',
      'content[0].type',
      'content[1].input',
      'content[1].name',
      'content[1].text',
      'content[1].type',
      'content[2]',
    ]);
  });

  it('model-patch patches the recorded response', () => {
    const applied = applyOverride(
      { kind: 'model-patch', operations: [{ op: 'replace', path: '/content/2/input/document_id', value: 'DOC-1' }] },
      modelStep(),
    );
    expect(applied.at === 'model' && applied.response.content[2]).toEqual({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'ocr_document',
      input: { document_id: 'DOC-1' },
    });
    expect(applied.changes).toEqual([
      { path: 'content[2].input.document_id', before: '"DOC-77120"', after: '"DOC-1"' },
    ]);
  });

  it.each<[string, ForkOverride]>([
    [
      'the same response with other ids and usage',
      {
        kind: 'model-response',
        response: {
          ...TURN,
          id: 'msg_9',
          usage: { inputTokens: 1, outputTokens: 1 },
          content: TURN.content.map((part) => (part.type === 'tool_use' ? { ...part, id: 'toolu_9' } : part)),
        },
      },
    ],
    [
      'a patch of the signature',
      { kind: 'model-patch', operations: [{ op: 'replace', path: '/content/0/signature', value: 'other' }] },
    ],
    ['the same system prompt', { kind: 'system-prompt', system: 'You triage claims.' }],
    ['the same model', { kind: 'model', model: 'claude-opus-5' }],
  ])('%s changes nothing: OVERRIDE_INVALID', (_name, override) => {
    expect(refusal(override, modelStep()).code).toBe('OVERRIDE_INVALID');
  });

  it.each<[string, ForkOverride]>([
    ['removes the stop reason', { kind: 'model-patch', operations: [{ op: 'remove', path: '/stopReason' }] }],
    [
      'makes the content an object',
      { kind: 'model-patch', operations: [{ op: 'replace', path: '/content', value: { text: 'x' } }] },
    ],
    [
      'gives a tool call an array for input',
      { kind: 'model-patch', operations: [{ op: 'replace', path: '/content/2/input', value: [] }] },
    ],
    [
      'replaces the whole response with text',
      { kind: 'model-patch', operations: [{ op: 'replace', path: '', value: 'approve' }] },
    ],
  ])('a model patch that %s leaves no model response: OVERRIDE_INVALID', (_name, override) => {
    const error = refusal(override, modelStep());
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(error.message).toMatch(/does not leave a model response in the provider-neutral shape/);
  });

  it('a model patch that adds a tool_result part is refused, as a model-response holding one is', () => {
    // parseForkOverride refuses { kind: 'model-response' } with a tool_result part (a user-turn part);
    // the same response reached through a patch must not get through.
    const part = {
      type: 'tool_result',
      toolUseId: 'toolu_1',
      content: 'the estimate is 9000',
      isError: false,
    } as const;
    const error = refusal(
      { kind: 'model-patch', operations: [{ op: 'add', path: '/content/-', value: part }] },
      modelStep(),
    );
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(error.message).toMatch(/tool_result/);
  });

  it('system-prompt and model change the request context, and say so', () => {
    expect(applyOverride({ kind: 'system-prompt', system: 'Refer it.' }, modelStep())).toEqual({
      at: 'context',
      context: { system: 'Refer it.' },
      changes: [{ path: 'system', before: '"You triage claims."', after: '"Refer it."' }],
    });
    expect(applyOverride({ kind: 'model', model: 'claude-sonnet-5' }, modelStep())).toEqual({
      at: 'context',
      context: { model: 'claude-sonnet-5' },
      changes: [{ path: 'model', before: '"claude-opus-5"', after: '"claude-sonnet-5"' }],
    });
  });

  it.each<ForkOverride>([
    { kind: 'tool-result', output: {} },
    { kind: 'tool-merge', patch: { a: 1 } },
    { kind: 'tool-patch', operations: [{ op: 'add', path: '/a', value: 1 }] },
    { kind: 'tool-error', message: 'down' },
  ])('a %j override at a model step is OVERRIDE_MISMATCH, pointing at the model kinds', (override) => {
    const error = refusal(override, modelStep());
    expect(error.code).toBe('OVERRIDE_MISMATCH');
    expect(error.message).toMatch(
      /step 3 of run 9b40c1d5 is a model step \(model#1\); a tool-\w+ override needs a tool step\. At a model step use a model-response, model-patch, system-prompt or model override/,
    );
    expect(error.message).not.toMatch(/--/);
    expect(error.details.remedy).toEqual({ kind: 'override-for-step', step: 'model' });
  });
});

describe('editOverride', () => {
  it('records a recipe as the JSON Patch it made, marked as an edit', () => {
    const override = editOverride<Ocr>(
      OCR,
      (draft) => {
        draft.fields.damage_area_cm2.value = 2050;
      },
      'tool',
    );
    expect(override).toEqual({
      kind: 'tool-patch',
      operations: [{ op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 }],
      via: 'edit',
    });
    expect(OCR.fields.damage_area_cm2.value).toBe(205);
  });

  it("writes a model step's edit as a model-patch", () => {
    const override = editOverride<ModelResponse>(
      TURN,
      (draft) => {
        draft.stopReason = 'end_turn';
        draft.content.splice(2, 1);
      },
      'model',
    );
    expect(override).toEqual({
      kind: 'model-patch',
      operations: expect.arrayContaining([
        { op: 'replace', path: '/stopReason', value: 'end_turn' },
        { op: 'remove', path: '/content/2' },
      ]),
      via: 'edit',
    });
    expect(override.kind === 'model-patch' && override.operations).toHaveLength(2);
  });

  it('escapes keys into JSON Pointers, records removals and additions, and a returned value as a whole replacement', () => {
    type Doc = Record<string, JsonValue> & { list: number[] };
    const base = { list: [1, 2, 3], gone: true } as Doc;
    const edited = editOverride<Doc>(
      base,
      (draft) => {
        draft['a/b~c'] = 1;
        delete draft.gone;
        draft.list.push(4);
      },
      'tool',
    );
    expect(edited).toEqual({
      kind: 'tool-patch',
      operations: expect.arrayContaining([
        { op: 'add', path: '/a~1b~0c', value: 1 },
        { op: 'remove', path: '/gone' },
        { op: 'add', path: '/list/3', value: 4 },
      ]),
      via: 'edit',
    });
    expect(applyOverride(edited, toolStep(base)).changes.map((change) => change.path)).toEqual([
      'a/b~c',
      'gone',
      'list[3]',
    ]);
    expect(editOverride<Doc>(base, () => ({ list: [] }), 'tool')).toEqual({
      kind: 'tool-patch',
      operations: [{ op: 'replace', path: '', value: { list: [] } }],
      via: 'edit',
    });
  });

  it('gives a patch that applyOverride turns into exactly what the recipe made', () => {
    type Edited = { fields: Ocr['fields']; text?: string };
    const recipe = (draft: Edited) => {
      draft.fields.panels_affected.value = 3;
      delete draft.text;
      draft.fields.damage_area_cm2 = { value: 2050, confidence: 0.97 };
    };
    const expected: Edited = structuredClone(OCR);
    recipe(expected);
    const applied = applyOverride(editOverride<Edited>(OCR, recipe, 'tool'), toolStep());
    expect(applied.at === 'tool' && applied.response.output).toEqual(expected);
  });

  it.each<[string, (draft: Record<string, unknown>) => void, RegExp]>([
    ['changes nothing', () => {}, /changed nothing in the recorded value/],
    [
      'throws',
      () => {
        throw new Error('no such field');
      },
      /the edit recipe threw: no such field/,
    ],
    [
      'sets undefined',
      (draft) => {
        draft.text = undefined;
      },
      /the edited value at \/text is not plain JSON/,
    ],
    [
      'sets a Date',
      (draft) => {
        draft.when = new Date(0);
      },
      /the edited value at \/when is not plain JSON.*Date/,
    ],
    [
      'reads a field that is not there',
      (draft) => {
        (draft.missing as { value: number }).value = 1;
      },
      /the edit recipe threw/,
    ],
  ])('a recipe that %s is OVERRIDE_INVALID', (_name, recipe, message) => {
    const error = thrown(() => editOverride<Record<string, unknown>>(OCR, recipe, 'tool'));
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(error.message).toMatch(message);
  });
});

describe('describeOverride', () => {
  it('says what an edit changed, as operations on fields', () => {
    expect(
      describeOverride(
        {
          kind: 'tool-patch',
          operations: [{ op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 }],
          via: 'edit',
        },
        [{ path: 'fields.damage_area_cm2.value', before: '205', after: '2050' }],
      ),
    ).toBe('tool-patch (edit): replace fields.damage_area_cm2.value 205 -> 2050');
  });

  it('says what any override changed, adds and removes too, and cuts a long list short', () => {
    const changes = applyOverride(
      { kind: 'tool-merge', patch: { notes: 'x', text: null, ocr_model: 'v2', document_id: 'D' } },
      toolStep(),
    ).changes;
    expect(describeOverride({ kind: 'tool-merge', patch: {} }, changes as unknown as JsonObject[])).toBe(
      'tool-merge: replace document_id "DOC-77120" -> "D", add notes "x", replace ocr_model "v1" -> "v2", and 1 more',
    );
    expect(
      describeOverride({ kind: 'tool-merge', patch: {} }, [
        { path: 'text', before: '"ASSESSOR REPORT"', after: '(absent)' },
      ]),
    ).toBe('tool-merge: remove text "ASSESSOR REPORT"');
  });

  it('says a fork answered an approval otherwise: the answer as words, then what else the answer changed', () => {
    const override = { kind: 'approval', approved: false, note: 'duplicate' };
    expect(
      describeOverride(override, [
        { path: 'approved', before: 'true', after: 'false' },
        { path: 'note', before: '"checked the invoice"', after: '"duplicate"' },
      ]),
    ).toBe('approval answered otherwise: approved -> rejected, note "checked the invoice" -> "duplicate"');
    expect(describeOverride(override, [{ path: 'note', before: 'null', after: '"duplicate"' }])).toBe(
      'approval answered otherwise: rejected, note null -> "duplicate"',
    );
    // An expired fork keeps no changes: the answer it gave is what is left to say.
    expect(describeOverride(override, null)).toBe('approval answered otherwise: rejected');
  });

  it('falls back to what the override holds when no changes were recorded', () => {
    expect(describeOverride({ kind: 'tool-error', message: 'OCR service timed out' })).toBe(
      'tool-error "OCR service timed out"',
    );
    expect(describeOverride({ kind: 'model', model: 'claude-sonnet-5' }, null)).toBe('model "claude-sonnet-5"');
    expect(describeOverride({ kind: 'system-prompt', system: 'x'.repeat(100) })).toMatch(/^system-prompt "x{58}…$/);
    expect(describeOverride(null)).toBe('override');
  });
});
