import stableStringify from 'fast-json-stable-stringify';
import fc from 'fast-check';
import type { Draft } from 'immer';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import type { ForkOptions, ForkResult } from '../../src/modes/index.js';
import type { ForkOverride } from '../../src/fork/index.js';
import type { JsonPatchOperation, JsonValue } from '../../src/json/index.js';
import type { ModelResponse } from '../../src/conversation/index.js';
import type { StepView } from '../../src/read/index.js';
import { applyJsonPatch } from '../../src/json/index.js';
import { createEngine } from '../../src/engine/index.js';
import { describeOverride, parseForkOverride } from '../../src/fork/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { observationOf } from '../../src/analysis/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, withIncident, worldAt } from '../support/incident.js';
import { finalTurn, syntheticWorld, testAgent, toolTurn } from '../support/test-agents.js';

// estimate_repair registers an estimate: a fork that goes past it asks its simulator by name.
const simulateEstimates = { tools: { estimate_repair: 'simulate' } } as const;

interface Ocr {
  document_id: string;
  fields: {
    damage_area_cm2: { value: number; confidence: number };
    [name: string]: { value: unknown; confidence: number };
  };
  text: string;
}

/** Every run row and every step row the store holds. */
async function storeState(engine: Engine) {
  const runs = await engine.store.listRuns();
  const steps = [];
  for (const run of runs) steps.push(await engine.store.readSteps(run.runId));
  return { runs, steps };
}

/** The code `work` is refused with, checking that the store is exactly as it was. */
async function refusedWith(engine: Engine, work: () => Promise<unknown>): Promise<string> {
  const before = await storeState(engine);
  let code: string | undefined;
  try {
    await work();
  } catch (error) {
    code = isForkpointError(error) ? error.code : `not a ForkpointError: ${String(error)}`;
  }
  expect(code, 'the fork was not refused').toBeDefined();
  expect(await storeState(engine)).toEqual(before);
  return code!;
}

const stable = (value: unknown): string => stableStringify(value);
const incidentFork = (atStep: number) => ({
  parentRunId: '9b40c1d5',
  atStep,
  agent: build('baseline'),
  world: worldAt('2026-03-04'),
});

describe('fork overrides: malformed ones are refused before anything is written', () => {
  it.each<[string, number, unknown, RegExp]>([
    ['a misspelt model field', 5, { kind: 'model', modelId: 'x' }, /no field "modelId" \(did you mean "model"\?\)/],
    [
      'a system prompt under another name',
      1,
      { kind: 'system-prompt', prompt: 'Refer low-confidence readings.' },
      /no field "prompt"/,
    ],
    [
      'a system prompt that is a number',
      1,
      { kind: 'system-prompt', system: 42 },
      /system-prompt\.system must be a string/,
    ],
    [
      'a misspelt kind',
      1,
      { kind: 'sytem-prompt', system: 'Refer low-confidence readings.' },
      /unknown override kind "sytem-prompt" \(did you mean "system-prompt"\?\)/,
    ],
    [
      'an unknown kind at a tool step (invalid, not a mismatch)',
      4,
      { kind: 'tool-replace', output: { fields: {} } },
      /unknown override kind "tool-replace"/,
    ],
    ['a misspelt tool kind at a tool step', 4, { kind: 'tool_result', output: {} }, /did you mean "tool-result"/],
    ['a model kind with a wrong field at a tool step', 4, { kind: 'model', id: 'x' }, /no field "id"/],
    [
      'a JSON Patch that is no list',
      4,
      { kind: 'tool-patch', operations: { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 } },
      /non-empty list/,
    ],
    ['a tool result that is not JSON', 4, { kind: 'tool-result', output: { read: new Date(0) } }, /not plain JSON/],
    [
      'a `__proto__` field',
      4,
      JSON.parse('{"kind":"tool-merge","patch":{},"__proto__":{"patch":{"a":1}}}'),
      /no field "__proto__"/,
    ],
  ])('%s: OVERRIDE_INVALID, no row written', async (_name, atStep, override, message) => {
    const { engine } = await withIncident();
    let error: unknown;
    const code = await refusedWith(engine, async () => {
      try {
        await engine.fork({ ...incidentFork(atStep), override: override as ForkOverride });
      } catch (caught) {
        error = caught;
        throw caught;
      }
    });
    expect(code).toBe('OVERRIDE_INVALID');
    expect((error as Error).message).toMatch(message);
  });

  it('refuses both an override and an edit, neither, and an edit that is no function', async () => {
    const { engine } = await withIncident();
    const edit = (draft: Draft<Ocr>) => {
      draft.fields.damage_area_cm2.value = 2050;
    };
    const both = {
      ...incidentFork(4),
      override: { kind: 'tool-error', message: 'down' },
      edit,
    } as unknown as ForkOptions;
    expect(await refusedWith(engine, () => engine.fork(both))).toBe('OVERRIDE_INVALID');
    await expect(engine.fork(both)).rejects.toThrow(/give either override or edit, not both/);
    const neither = { ...incidentFork(4) } as unknown as ForkOptions;
    expect(await refusedWith(engine, () => engine.fork(neither))).toBe('OVERRIDE_INVALID');
    await expect(engine.fork(neither)).rejects.toThrow(/got neither/);
    const notAFunction = {
      ...incidentFork(4),
      edit: { fields: { damage_area_cm2: { value: 2050 } } },
    } as unknown as ForkOptions;
    expect(await refusedWith(engine, () => engine.fork(notAFunction))).toBe('OVERRIDE_INVALID');
  });

  it.each<[string, number, ForkOverride | ((draft: Draft<Ocr>) => void)]>([
    ['an empty tool-merge', 4, { kind: 'tool-merge', patch: {} }],
    [
      'a tool-merge that sets the recorded value',
      4,
      { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 205 } } } },
    ],
    [
      'a tool-patch that only tests',
      4,
      { kind: 'tool-patch', operations: [{ op: 'test', path: '/fields/damage_area_cm2/value', value: 205 }] },
    ],
    ['an edit recipe that changes nothing', 4, () => {}],
    [
      'an edit recipe that writes the value it reads',
      4,
      (draft) => {
        draft.fields.damage_area_cm2.value = 205;
      },
    ],
    ['the same model id', 5, { kind: 'model', model: 'claude-opus-5' }],
  ])('a no-op (%s) is OVERRIDE_INVALID, and writes nothing', async (_name, atStep, change) => {
    const { engine } = await withIncident();
    const run = () =>
      typeof change === 'function'
        ? engine.fork<Ocr>({ ...incidentFork(atStep), edit: change })
        : engine.fork({ ...incidentFork(atStep), override: change });
    expect(await refusedWith(engine, run)).toBe('OVERRIDE_INVALID');
    await expect(run()).rejects.toThrow(/changes nothing|changed nothing/);
  });

  it.each<[string, (draft: Draft<Ocr>) => void, RegExp]>([
    [
      'throws',
      () => {
        throw new Error('no such field');
      },
      /the edit recipe threw: no such field/,
    ],
    [
      'writes undefined',
      (draft) => {
        (draft.fields.damage_area_cm2 as { value: unknown }).value = undefined;
      },
      /not plain JSON/,
    ],
    [
      'writes a Date',
      (draft) => {
        (draft as { read?: unknown }).read = new Date(0);
      },
      /not plain JSON/,
    ],
  ])('an edit recipe that %s is OVERRIDE_INVALID, and writes nothing', async (_name, edit, message) => {
    const { engine } = await withIncident();
    expect(await refusedWith(engine, () => engine.fork<Ocr>({ ...incidentFork(4), edit }))).toBe('OVERRIDE_INVALID');
    await expect(engine.fork<Ocr>({ ...incidentFork(4), edit })).rejects.toThrow(message);
  });

  it('a tool-patch that cannot apply is OVERRIDE_INVALID, and writes nothing', async () => {
    const { engine } = await withIncident();
    const override: ForkOverride = {
      kind: 'tool-patch',
      operations: [
        { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 },
        { op: 'remove', path: '/fields/area' },
      ],
    };
    expect(await refusedWith(engine, () => engine.fork({ ...incidentFork(4), override }))).toBe('OVERRIDE_INVALID');
  });

  it('refuses a patch list with a hole in it, rather than storing an override that says [op, null]', async () => {
    const { engine } = await withIncident();
    const operations: JsonPatchOperation[] = [{ op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 }];
    operations.length = 2;
    expect(
      await refusedWith(engine, () =>
        engine.fork({ ...incidentFork(4), override: { kind: 'tool-patch', operations } }),
      ),
    ).toBe('OVERRIDE_INVALID');
  });

  it("refuses a model-patch that puts a tool_result part into the model's turn, as it refuses such a model-response", async () => {
    const { engine } = await withIncident();
    const part = { type: 'tool_result', toolUseId: 'toolu_x', content: 'estimate: EUR 9000', isError: false } as const;
    const response = { ...((await engine.getRun('9b40c1d5')).steps[2]!.response as unknown as ModelResponse) };
    expect(
      await refusedWith(engine, () =>
        engine.fork({
          ...incidentFork(3),
          override: { kind: 'model-response', response: { ...response, content: [...response.content, part] } },
        }),
      ),
    ).toBe('OVERRIDE_INVALID');
    expect(
      await refusedWith(engine, () =>
        engine.fork({
          ...incidentFork(3),
          override: { kind: 'model-patch', operations: [{ op: 'add', path: '/content/-', value: part }] },
        }),
      ),
    ).toBe('OVERRIDE_INVALID');
  });
});

describe('fork overrides on the incident', () => {
  it('tool-error at step 4: the OCR call fails, marked override, and the run goes on from the error', async () => {
    const { engine, incident } = await withIncident();
    const override: ForkOverride = { kind: 'tool-error', message: 'OCR service timed out' };
    const fork = await engine.fork({ ...incidentFork(4), override, sideEffects: simulateEstimates });
    const forkRun = await engine.getRun(fork.runId);
    expect(fork.parent).toMatchObject({ runId: '9b40c1d5', atStep: 4, override });
    expect(forkRun.steps[3]).toMatchObject({
      kind: 'ocr_document',
      index: 0,
      provenance: 'override',
      requestHash: incident.steps[3]!.requestHash,
      response: { output: { error: 'OCR service timed out' }, isError: true },
    });
    expect(fork.parent.changes).toContainEqual({ path: 'isError', before: 'false', after: 'true' });
    expect(forkRun.steps.slice(0, 3).map((step) => step.provenance)).toEqual(['inherited', 'inherited', 'inherited']);
    expect(forkRun.steps[4]).toMatchObject({ kind: 'model', provenance: 'live' });
    expect(forkRun.steps[4]!.requestHash).not.toBe(incident.steps[4]!.requestHash);
  });

  it('model-response at step 3: the model asks for the policy first, and the next step is fetch_policy#0', async () => {
    const { engine, incident } = await withIncident();
    const response: ModelResponse = {
      id: 'msg_policy_first',
      model: 'claude-opus-5',
      content: [
        { type: 'text', text: 'I will check the policy before reading the form.' },
        { type: 'tool_use', id: 'toolu_policy', name: 'fetch_policy', input: { policy_id: 'POL-5531' } },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 602, outputTokens: 30 },
    };
    const fork = await engine.fork({ ...incidentFork(3), override: { kind: 'model-response', response } });
    const forkRun = await engine.getRun(fork.runId);
    expect(fork.parent.override).toEqual({ kind: 'model-response', response });
    expect(forkRun.steps[2]).toMatchObject({
      kind: 'model',
      index: 1,
      provenance: 'override',
      response,
      requestHash: incident.steps[2]!.requestHash,
    });
    expect(forkRun.steps[3]).toMatchObject({
      kind: 'fetch_policy',
      index: 0,
      provenance: 'live',
      request: { tool: 'fetch_policy', input: { policy_id: 'POL-5531' } },
    });
    expect(fork.parent.changes?.map((change) => change.path)).toContain('content[1].name');
  });

  it('tool-patch (RFC 6902) at step 4 changes the one value, and keeps the rest of the output', async () => {
    const { engine, incident } = await withIncident();
    const override: ForkOverride = {
      kind: 'tool-patch',
      operations: [
        { op: 'test', path: '/fields/damage_area_cm2/value', value: 205 },
        { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 },
      ],
    };
    const fork = await engine.fork({ ...incidentFork(4), override, sideEffects: simulateEstimates });
    const forkRun = await engine.getRun(fork.runId);
    const recorded = structuredClone(incident.steps[3]!.response as unknown as { output: Ocr; isError: boolean });
    recorded.output.fields.damage_area_cm2.value = 2050;
    expect(forkRun.steps[3]).toMatchObject({ provenance: 'override', response: recorded });
    expect(fork.parent).toMatchObject({
      override,
      changes: [{ path: 'fields.damage_area_cm2.value', before: '205', after: '2050' }],
    });
    expect(describeOverride(fork.parent.override, fork.parent.changes)).toBe(
      'tool-patch: replace fields.damage_area_cm2.value 205 -> 2050',
    );
    expect(forkRun.steps[4]!.requestHash).not.toBe(incident.steps[4]!.requestHash);
  });

  it('model-patch at step 5: the model asks for the estimate of the area as it should have been read', async () => {
    const { engine, incident } = await withIncident();
    const override: ForkOverride = {
      kind: 'model-patch',
      operations: [{ op: 'replace', path: '/content/2/input/damage_area_cm2', value: 2050 }],
    };
    const fork = await engine.fork({ ...incidentFork(5), override, sideEffects: simulateEstimates });
    const forkRun = await engine.getRun(fork.runId);
    expect(forkRun.steps[4]).toMatchObject({ kind: 'model', index: 2, provenance: 'override' });
    expect(forkRun.steps[4]!.response).toEqual(applyJsonPatch(incident.steps[4]!.response, override.operations));
    expect(fork.parent.changes).toEqual([{ path: 'content[2].input.damage_area_cm2', before: '205', after: '2050' }]);
    expect(forkRun.steps[5]).toMatchObject({
      kind: 'estimate_repair',
      provenance: 'simulated',
      request: { input: { damage_area_cm2: 2050 } },
    });
  });

  it('an edit recipe at step 4 is stored as its patch list, with what it changed, and reads 2050', async () => {
    const { engine } = await withIncident();
    const fork = await engine.fork<Ocr>({
      ...incidentFork(4),
      edit: (draft) => {
        draft.fields.damage_area_cm2.value = 2050;
      },
      sideEffects: simulateEstimates,
    });
    expect(fork.parent.override).toEqual({
      kind: 'tool-patch',
      operations: [{ op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 }],
      via: 'edit',
    });
    expect(fork.parent.changes).toEqual([{ path: 'fields.damage_area_cm2.value', before: '205', after: '2050' }]);
    expect((await engine.getRun(fork.runId)).steps[3]).toMatchObject({
      provenance: 'override',
      response: { output: { fields: { damage_area_cm2: { value: 2050, confidence: 0.38 } } }, isError: false },
    });
    expect(describeOverride(fork.parent.override, fork.parent.changes)).toBe(
      'tool-patch (edit): replace fields.damage_area_cm2.value 205 -> 2050',
    );
    // What is stored is an override like any other: forking with it again gives the same step 4.
    const again = await engine.fork({
      ...incidentFork(4),
      override: parseForkOverride(fork.parent.override),
      sideEffects: simulateEstimates,
    });
    const againRun = await engine.getRun(again.runId);
    expect(againRun.steps[3]!.response).toEqual((await engine.getRun(fork.runId)).steps[3]!.response);
  });

  it('an edit recipe at a model step is stored as a model-patch', async () => {
    const { engine } = await withIncident();
    const fork = await engine.fork<ModelResponse>({
      ...incidentFork(3),
      edit: (draft) => {
        const call = draft.content.find((part) => part.type === 'tool_use');
        if (call?.type === 'tool_use') call.name = 'fetch_policy';
        if (call?.type === 'tool_use') call.input = { policy_id: 'POL-5531' };
      },
    });
    expect(fork.parent.override).toMatchObject({ kind: 'model-patch', via: 'edit' });
    expect((await engine.getRun(fork.runId)).steps[3]).toMatchObject({ kind: 'fetch_policy', index: 0 });
  });

  it("leaves the parent's rows as they were", async () => {
    const { engine, incident } = await withIncident();
    const before = await engine.store.readSteps(incident.runId);
    await engine.fork({ ...incidentFork(4), override: { kind: 'tool-error', message: 'down' } });
    await engine.fork<Ocr>({ ...incidentFork(4), edit: (draft) => void (draft.text = '') });
    expect(await engine.store.readSteps(incident.runId)).toEqual(before);
    expect(await engine.getRun(incident.runId)).toEqual(incident);
  });
});

describe('fork and re-execution keep to the agent of the run', () => {
  it("refuses to fork the incident with another agent's build: AGENT_MISMATCH, nothing written", async () => {
    const { engine } = await withIncident();
    const fork = () =>
      engine.fork({
        parentRunId: '9b40c1d5',
        atStep: 5,
        agent: testAgent(),
        world: syntheticWorld({ toolCalls: 1 }),
        override: { kind: 'model', model: 'claude-sonnet-5' },
      });
    expect(await refusedWith(engine, fork)).toBe('AGENT_MISMATCH');
    await expect(fork()).rejects.toThrow(
      /cannot fork run 9b40c1d5 with build baseline of agent test-agent: the run is agent claims-triage's/,
    );
  });

  it("refuses to re-execute the incident with another agent's build: AGENT_MISMATCH, nothing written", async () => {
    const { engine } = await withIncident();
    const reexecute = () =>
      engine.reexecute({
        sourceRunId: '9b40c1d5',
        agent: testAgent(),
        world: syntheticWorld({ toolCalls: 1 }),
      });
    expect(await refusedWith(engine, reexecute)).toBe('AGENT_MISMATCH');
    await expect(reexecute()).rejects.toThrow(/cannot re-execute run 9b40c1d5/);
  });

  it('refuses a claims build for a run of the test agent', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const parent = await engine.record({
      agent: testAgent(),
      world: syntheticWorld({ toolCalls: 1 }),
      input: { n: 1 },
    });
    expect(
      await refusedWith(engine, () =>
        engine.fork({
          parentRunId: parent.runId,
          atStep: 1,
          agent: build('baseline'),
          world: worldAt('2026-03-04'),
          override: { kind: 'model', model: 'x' },
        }),
      ),
    ).toBe('AGENT_MISMATCH');
  });

  it('a fork that only changes the model keeps the agent and its build, and can be forked again with it', async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({ ...incidentFork(5), override: { kind: 'model', model: 'claude-sonnet-5' } });
    expect(fork.agent).toEqual(incident.agent);
    expect((await engine.getRun(fork.runId)).steps[4]).toMatchObject({
      provenance: 'live',
      request: { model: 'claude-sonnet-5' },
    });
    const again = await engine.fork({
      parentRunId: fork.runId,
      atStep: 5,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      override: { kind: 'model', model: 'claude-opus-5' },
    });
    expect(again.agent).toEqual(incident.agent);
    // Another build of the same agent may continue the run.
    const patched = await engine.fork({
      ...incidentFork(5),
      agent: build('patched'),
      override: { kind: 'model', model: 'claude-sonnet-5' },
    });
    expect(patched.agent).toMatchObject({ name: 'claims-triage', build: 'patched' });
  });
});

// ---------------------------------------------------------------------------
// The engine-level property: every override asked for either is refused
// (OVERRIDE_INVALID / OVERRIDE_MISMATCH, nothing written) or makes a fork
// whose step N differs from the parent's, and stores what was asked.
// ---------------------------------------------------------------------------

interface Echo {
  echoed: { n: number };
  payload?: string;
  extra?: unknown;
}

/** What a generated case expects: refused as invalid, refused as mismatched, a real change, or either a refusal or a change. */
type Expectation = 'invalid' | 'mismatch' | 'change' | 'refused-or-change';
type Change =
  | { readonly override: unknown }
  // An edit recipe may change its draft or return a new value: immer's recipe contract, as ForkEdit has it.
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- immer's recipe returns void or a value
  | { readonly toolEdit: (draft: Draft<Echo>) => void | Echo }
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- immer's recipe returns void or a value
  | { readonly modelEdit: (draft: Draft<ModelResponse>) => void | ModelResponse }
  | { readonly raw: Record<string, unknown> };
interface Materialised {
  readonly change: Change;
  readonly expected: Expectation;
}
type Case = {
  readonly at: 'tool' | 'model' | 'any';
  readonly label: string;
  readonly make: (recorded: StepView) => Materialised;
};

const SYSTEM = 'You echo things.';
const MODEL = 'test-model';
const differs = (a: unknown, b: unknown) => stable(a) !== stable(b);
const outputOf = (step: StepView) => (step.response as unknown as { output: Echo }).output;
const responseOf = (step: StepView) => step.response as unknown as ModelResponse;
const changeIf = (changed: boolean): Expectation => (changed ? 'change' : 'invalid');
const isObject = (value: unknown): value is Record<string, JsonValue> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** RFC 7386, section 2, as the RFC writes it. */
function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const result: Record<string, JsonValue> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(result, key);
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
const text = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1 }),
  fc.constantFrom(SYSTEM, MODEL, 'claude-sonnet-5', 'calling tools'),
);
const n = fc.integer({ min: -1, max: 2 });
const override = (value: unknown): Change => ({ override: value });

const toolCases: fc.Arbitrary<Case>[] = [
  fc
    .oneof(json, fc.constant('RECORDED' as const), fc.constant('REORDERED' as const), fc.constant('PROTO' as const))
    .map((output) => ({
      at: 'tool',
      label: `tool-result ${JSON.stringify(output)}`,
      make: (step) => {
        const recorded = outputOf(step);
        const value =
          output === 'RECORDED'
            ? structuredClone(recorded)
            : output === 'REORDERED'
              ? { payload: recorded.payload, echoed: recorded.echoed }
              : output === 'PROTO'
                ? (JSON.parse('{"__proto__":{"polluted":true},"n":1}') as JsonValue)
                : output;
        return {
          change: override({ kind: 'tool-result', output: value }),
          expected: changeIf(differs(value, recorded)),
        };
      },
    })),
  fc
    .oneof(
      n.map((m) => ({ echoed: { n: m } })),
      fc.constantFrom<JsonValue>({}, { echoed: null }, { payload: null }, { extra: 1 }, { extra: { deep: [1] } }),
      json,
    )
    .map((patch) => ({
      at: 'tool',
      label: `tool-merge ${JSON.stringify(patch)}`,
      make: (step) => ({
        change: override({ kind: 'tool-merge', patch }),
        expected: changeIf(differs(mergePatch(outputOf(step) as unknown as JsonValue, patch), outputOf(step))),
      }),
    })),
  fc
    .record({
      operations: fc.oneof(
        n.map((m): JsonPatchOperation[] => [{ op: 'replace', path: '/echoed/n', value: m }]),
        n.map((m): JsonPatchOperation[] => [{ op: 'test', path: '/echoed/n', value: m }]),
        fc.constantFrom<JsonPatchOperation[]>(
          [{ op: 'remove', path: '/payload' }],
          [{ op: 'remove', path: '/missing' }],
          [{ op: 'add', path: '/-', value: 1 }],
          [{ op: 'move', from: '/payload', path: '/p2' }],
          [{ op: 'copy', from: '/echoed', path: '/echoed/copy' }],
          [{ op: 'move', from: '/echoed', path: '/echoed/n/x' }],
          [
            { op: 'replace', path: '/payload', value: 'y' },
            { op: 'replace', path: '/payload', value: 'x'.repeat(64) },
          ],
        ),
        json.map((value): JsonPatchOperation[] => [{ op: 'replace', path: '', value }]),
      ),
      via: fc.boolean(),
    })
    .map(({ operations, via }) => ({
      at: 'tool',
      label: `tool-patch ${JSON.stringify(operations)}`,
      make: (step) => {
        let expected: Expectation;
        try {
          expected = changeIf(
            differs(applyJsonPatch(outputOf(step) as unknown as JsonValue, operations), outputOf(step)),
          );
        } catch {
          expected = 'invalid';
        }
        return { change: override({ kind: 'tool-patch', operations, ...(via ? { via: 'edit' } : {}) }), expected };
      },
    })),
  text.map((message) => ({
    at: 'tool',
    label: `tool-error ${message}`,
    make: () => ({
      change: override({ kind: 'tool-error', message }),
      expected: message.trim() === '' ? 'invalid' : 'change',
    }),
  })),
  fc
    .oneof(
      n.map((m) => ({
        recipe: (draft: Draft<Echo>) => void (draft.echoed.n = m),
        changes: (recorded: Echo) => recorded.echoed.n !== m,
      })),
      fc.constant({
        recipe: (draft: Draft<Echo>) => {
          delete draft.payload;
        },
        changes: () => true,
      }),
      json.map((value) => ({ recipe: (draft: Draft<Echo>) => void (draft.extra = value), changes: () => true })),
      json.map((value) => ({
        recipe: () => value as unknown as Echo,
        changes: (recorded: Echo) => differs(value, recorded),
      })),
      fc.constant({ recipe: () => {}, changes: () => false }),
      fc.constant({
        recipe: () => {
          throw new Error('recipe failed');
        },
        changes: () => false,
      }),
      fc.constant({ recipe: (draft: Draft<Echo>) => void (draft.extra = new Date(0)), changes: () => false }),
    )
    .map(({ recipe, changes }) => ({
      at: 'tool',
      label: `tool edit ${recipe.toString()}`,
      make: (step) => ({ change: { toolEdit: recipe }, expected: changeIf(changes(outputOf(step))) }),
    })),
];

const modelCases: fc.Arbitrary<Case>[] = [
  fc
    .oneof(
      fc.constant('RECORDED' as const),
      fc.constant('OTHER_IDS' as const),
      n.map((m) => toolTurn([{ name: 'echo', input: { n: m } }])),
      fc.constantFrom('{"ok":true,"calls":2}', '{"ok":false}', 'not json').map(finalTurn),
      fc.constant(toolTurn([{ name: 'write', input: {} }])),
    )
    .map((response) => ({
      at: 'model',
      label: `model-response ${JSON.stringify(response)}`,
      make: (step) => {
        const recorded = responseOf(step);
        const value: ModelResponse =
          response === 'RECORDED'
            ? structuredClone(recorded)
            : response === 'OTHER_IDS'
              ? {
                  ...recorded,
                  id: 'msg_other',
                  usage: { inputTokens: 9, outputTokens: 9 },
                  content: recorded.content.map((part) =>
                    part.type === 'tool_use' ? { ...part, id: 'toolu_other' } : part,
                  ),
                }
              : response;
        return {
          change: override({ kind: 'model-response', response: value }),
          expected: changeIf(differs(observationOf(value), observationOf(recorded))),
        };
      },
    })),
  fc
    .oneof(
      text.map((value): JsonPatchOperation[] => [{ op: 'replace', path: '/content/0/text', value }]),
      fc.constantFrom<JsonPatchOperation[]>(
        [{ op: 'replace', path: '/id', value: 'msg_other' }],
        [{ op: 'replace', path: '/usage/inputTokens', value: 99 }],
        [{ op: 'replace', path: '/stopReason', value: 'max_tokens' }],
        [{ op: 'remove', path: '/usage' }],
        [{ op: 'remove', path: '/content/0' }],
        [{ op: 'add', path: '/content/-', value: { type: 'text', text: 'and more' } }],
      ),
    )
    .map((operations) => ({
      at: 'model',
      label: `model-patch ${JSON.stringify(operations)}`,
      make: (step) => {
        const recorded = responseOf(step) as unknown as JsonValue;
        let expected: Expectation;
        try {
          const patched = applyJsonPatch(recorded, operations) as { usage?: unknown };
          expected =
            patched.usage === undefined
              ? 'invalid'
              : changeIf(differs(observationOf(patched as JsonValue), observationOf(recorded)));
        } catch {
          expected = 'invalid';
        }
        return { change: override({ kind: 'model-patch', operations }), expected };
      },
    })),
  fc
    .record({
      system: fc.oneof(fc.string({ unit: 'binary' }), fc.constant(SYSTEM)),
      file: fc.option(fc.string(), { nil: undefined }),
    })
    .map(({ system, file }) => ({
      at: 'model',
      label: `system-prompt ${system}`,
      make: () => ({
        change: override({ kind: 'system-prompt', system, ...(file === undefined ? {} : { file }) }),
        expected: changeIf(system !== SYSTEM),
      }),
    })),
  text.map((model) => ({
    at: 'model',
    label: `model ${model}`,
    make: () => ({
      change: override({ kind: 'model', model }),
      expected: model.trim() === '' ? 'invalid' : changeIf(model !== MODEL),
    }),
  })),
  fc
    .oneof(
      text.map((value) => ({
        recipe: (draft: Draft<ModelResponse>) => {
          const part = draft.content[0];
          if (part?.type === 'text') part.text = value;
        },
        changes: (recorded: ModelResponse) =>
          recorded.content[0]?.type === 'text' && recorded.content[0].text !== value,
      })),
      fc.constant({ recipe: (draft: Draft<ModelResponse>) => void (draft.id = 'msg_other'), changes: () => false }),
      fc.constant({
        recipe: (draft: Draft<ModelResponse>) => void (draft.stopReason = 'max_tokens'),
        changes: (recorded: ModelResponse) => recorded.stopReason !== 'max_tokens',
      }),
      fc.constant({ recipe: () => {}, changes: () => false }),
    )
    .map(({ recipe, changes }) => ({
      at: 'model',
      label: `model edit ${recipe.toString()}`,
      make: (step) => ({ change: { modelEdit: recipe }, expected: changeIf(changes(responseOf(step))) }),
    })),
];

const REQUIRED: Record<string, string> = {
  'tool-result': 'output',
  'tool-merge': 'patch',
  'tool-patch': 'operations',
  'tool-error': 'message',
  'model-response': 'response',
  'model-patch': 'operations',
  'system-prompt': 'system',
  model: 'model',
};
const WRONG: Record<string, readonly unknown[]> = {
  output: [undefined, NaN, new Date(0), () => 1, 10n, { a: [undefined] }, new Map()],
  patch: [undefined, Infinity, { when: new Date(0) }, [Symbol('s')]],
  operations: [
    {},
    [],
    'replace',
    [{ op: 'delete', path: '/a' }],
    [{ op: 'add', path: 'a', value: 1 }],
    [{ op: 'remove', path: '/a', value: 1 }],
  ],
  message: ['', '   ', 42, null],
  response: [{}, { id: 'x' }, finalTurn('x').content],
  system: [42, null, ['x'], { text: 'x' }],
  model: ['', ' ', 7, ['claude-sonnet-5']],
};

/** A valid override made invalid in one way: misspelt kind, missing field, extra field, wrong type, or not a plain object at all. */
const broken = (valid: fc.Arbitrary<Case>) =>
  fc
    .tuple(
      valid,
      fc.constantFrom('kind', 'missing', 'extra', 'wrong', 'shape'),
      fc.nat(),
      fc.constantFrom('__proto__', 'constructor', 'modelId', 'prompt', 'outputs', 'Kind'),
    )
    .map(([base, how, pick, key]): Case => ({
      at: 'any',
      label: `${base.label}, broken: ${how}`,
      make: (step) => {
        // A valid override for the step's kind, whatever step the property picked.
        const made = (
          base.at === 'any' || (base.at === 'tool') === (step.kind !== 'model') ? base : fallback(step)
        ).make(step).change;
        const original =
          'override' in made ? { ...(made.override as Record<string, unknown>) } : { kind: 'model', model: 'x' };
        const field = REQUIRED[original.kind as string]!;
        const value: Record<string, unknown> = { ...original };
        if (how === 'kind') value.kind = `${String(original.kind).replace('-', '_')}s`;
        if (how === 'missing') Reflect.deleteProperty(value, field);
        if (how === 'extra')
          Object.defineProperty(value, key, { value: 'x', enumerable: true, writable: true, configurable: true });
        if (how === 'wrong') {
          const choices = WRONG[field]!;
          value[field] = choices[pick % choices.length];
        }
        if (how !== 'shape') return { change: override(value), expected: 'invalid' };
        // Made only for 'shape': a 'wrong' value may hold a BigInt, which JSON.stringify throws on.
        const shaped: unknown[] = [[value], null, JSON.stringify(value), new Date(0), Object.create(value) as unknown];
        return { change: override(shaped[pick % shaped.length]), expected: 'invalid' };
      },
    }));
const fallback = (step: StepView): Case =>
  step.kind === 'model'
    ? {
        at: 'model',
        label: 'model',
        make: () => ({ change: override({ kind: 'model', model: 'claude-sonnet-5' }), expected: 'change' }),
      }
    : {
        at: 'tool',
        label: 'tool-error',
        make: () => ({ change: override({ kind: 'tool-error', message: 'down' }), expected: 'change' }),
      };

/** The same valid case at a step of the other type. */
const mismatched = (valid: fc.Arbitrary<Case>) =>
  valid
    .filter((base) => base.at !== 'any' && !base.label.includes('edit'))
    .map((base): Case => ({
      at: base.at === 'tool' ? 'model' : 'tool',
      label: `${base.label} at the wrong step`,
      make: (step) => {
        const other =
          base.at === 'tool'
            ? { ...step, kind: 'echo', response: { output: { echoed: { n: 0 }, payload: 'x' }, isError: false } }
            : { ...step, kind: 'model', response: finalTurn('x') as unknown as JsonValue };
        const { change } = base.make(other);
        // A blank message or model id is refused by the schema before the step is looked at.
        const fields = 'override' in change ? (change.override as Record<string, unknown>) : {};
        const blank = ['message', 'model'].some(
          (field) => typeof fields[field] === 'string' && fields[field].trim() === '',
        );
        return { change, expected: blank ? 'invalid' : 'mismatch' };
      },
    }));

/** Fields and kinds thrown together: whether valid or not is not known here, only that a fork either refuses it or changes step N. */
const junk: fc.Arbitrary<Case> = fc
  .record({
    kind: fc.constantFrom(
      'tool-result',
      'tool-merge',
      'tool-patch',
      'tool-error',
      'model-response',
      'model-patch',
      'system-prompt',
      'model',
      'tool_result',
      'sytem-prompt',
    ),
    field: fc.constantFrom('output', 'patch', 'operations', 'message', 'response', 'system', 'model', 'via', 'file'),
    value: fc.oneof(
      json,
      fc.string(),
      fc.constantFrom<unknown>(
        undefined,
        new Date(0),
        [[{ op: 'add', path: '/x', value: 1 }]],
        [{ op: 'add', path: '/x', value: 1 }],
      ),
    ),
  })
  .map(({ kind, field, value }) => ({
    at: 'any',
    label: `junk ${kind}.${field}`,
    make: () => ({ change: override({ kind, [field]: value }), expected: 'refused-or-change' }),
  }));

const misuse: fc.Arbitrary<Case> = fc.constantFrom<Case>(
  {
    at: 'any',
    label: 'both',
    make: () => ({ change: { raw: { override: { kind: 'model', model: 'x' }, edit: () => {} } }, expected: 'invalid' }),
  },
  { at: 'any', label: 'neither', make: () => ({ change: { raw: {} }, expected: 'invalid' }) },
  {
    at: 'any',
    label: 'edit is no function',
    make: () => ({ change: { raw: { edit: { echoed: 1 } } }, expected: 'invalid' }),
  },
  {
    at: 'any',
    label: 'issue: modelId',
    make: () => ({ change: override({ kind: 'model', modelId: 'x' }), expected: 'invalid' }),
  },
  {
    at: 'any',
    label: 'issue: prompt',
    make: () => ({ change: override({ kind: 'system-prompt', prompt: 'x' }), expected: 'invalid' }),
  },
  {
    at: 'any',
    label: 'issue: system 42',
    make: () => ({ change: override({ kind: 'system-prompt', system: 42 }), expected: 'invalid' }),
  },
  {
    at: 'any',
    label: 'issue: sytem-prompt',
    make: () => ({ change: override({ kind: 'sytem-prompt', system: 'x' }), expected: 'invalid' }),
  },
);

const validCase = fc.oneof(...toolCases, ...modelCases);
const anyCase = fc.oneof(
  { weight: 8, arbitrary: validCase },
  { weight: 3, arbitrary: broken(validCase) },
  { weight: 2, arbitrary: mismatched(validCase) },
  { weight: 2, arbitrary: junk },
  { weight: 1, arbitrary: misuse },
);

describe('fork overrides (property)', () => {
  it("every override is refused (OVERRIDE_INVALID / OVERRIDE_MISMATCH, nothing written) or changes step N's request or response, and is stored as asked", async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const agent = testAgent();
    const world = syntheticWorld({ toolCalls: 2 });
    const parent = await engine.record({ agent, world, input: { n: 1 } });
    const steps = {
      tool: parent.steps.filter((step) => step.kind !== 'model'),
      model: parent.steps.filter((step) => step.kind === 'model'),
    };
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(anyCase, fc.nat(), async (testCase, pick) => {
        const candidates = testCase.at === 'any' ? parent.steps : steps[testCase.at];
        const target = candidates[pick % candidates.length]!;
        const { change, expected } = testCase.make(target);
        const base = { parentRunId: parent.runId, atStep: target.step, agent, world };
        const before = await storeState(engine);
        let fork: ForkResult | undefined;
        let error: unknown;
        try {
          if ('override' in change) fork = await engine.fork({ ...base, override: change.override as ForkOverride });
          else if ('toolEdit' in change) fork = await engine.fork<Echo>({ ...base, edit: change.toolEdit });
          else if ('modelEdit' in change) fork = await engine.fork<ModelResponse>({ ...base, edit: change.modelEdit });
          else fork = await engine.fork({ ...base, ...change.raw } as unknown as ForkOptions);
        } catch (caught) {
          error = caught;
        }
        const outcome =
          fork === undefined ? (isForkpointError(error) ? error.code : `threw ${String(error)}`) : 'forked';
        tally[outcome] = (tally[outcome] ?? 0) + 1;
        const where = `${testCase.label} at step ${target.step} (${target.kind}): expected ${expected}, got ${outcome}${error instanceof Error ? `: ${error.message}` : ''}`;

        if (fork === undefined) {
          expect(['OVERRIDE_INVALID', 'OVERRIDE_MISMATCH'], where).toContain(outcome);
          if (expected === 'invalid') expect(outcome, where).toBe('OVERRIDE_INVALID');
          if (expected === 'mismatch') expect(outcome, where).toBe('OVERRIDE_MISMATCH');
          expect(expected, where).not.toBe('change');
          expect(await storeState(engine), where).toEqual(before);
          return;
        }
        expect(['change', 'refused-or-change'], where).toContain(expected);
        // The fork's own first step is step N, the one it changed.
        const mine = fork.ownSteps[0]!;
        expect(mine.step, where).toBe(target.step);
        const forkSteps = (await engine.getRun(fork.runId)).steps;
        const requestChanged = mine.requestHash !== target.requestHash;
        const responseChanged = differs(observationOf(mine.response), observationOf(target.response));
        expect(requestChanged || responseChanged, `${where}: step ${target.step} is the parent's`).toBe(true);
        expect(fork.parent.changes?.length, where).toBeGreaterThan(0);
        expect(
          forkSteps.slice(0, target.step - 1).every((step) => step.provenance === 'inherited'),
          where,
        ).toBe(true);
        const stored = fork.parent.override;
        if ('override' in change) {
          expect(stable(stored), where).toBe(stable(JSON.parse(JSON.stringify(change.override))));
          expect(stored, where).toEqual(JSON.parse(JSON.stringify(change.override)));
          const kind = (change.override as { kind: string }).kind;
          expect(mine.provenance, where).toBe(kind === 'system-prompt' || kind === 'model' ? 'live' : 'override');
        } else {
          const edit = stored as { kind: string; operations: JsonPatchOperation[]; via: string };
          expect(edit, where).toMatchObject({
            kind: target.kind === 'model' ? 'model-patch' : 'tool-patch',
            via: 'edit',
          });
          const recordedValue =
            target.kind === 'model' ? target.response : (target.response as { output: JsonValue }).output;
          const forkValue = target.kind === 'model' ? mine.response : (mine.response as { output: JsonValue }).output;
          expect(
            stable(applyJsonPatch(recordedValue, edit.operations)),
            `${where}: the stored patch list is not what the recipe did`,
          ).toBe(stable(forkValue));
          expect(mine.provenance, where).toBe('override');
        }
        // What a fork stores is an override that can be given again.
        expect(() => parseForkOverride(stored), where).not.toThrow();
        const after = await storeState(engine);
        expect(after.runs, where).toHaveLength(before.runs.length + 1);
        expect(await engine.store.readSteps(parent.runId), where).toEqual(
          before.steps[before.runs.findIndex((run) => run.runId === parent.runId)],
        );
        expect(
          (await engine.store.readSteps(fork.runId)).every((row) => row.step >= target.step),
          where,
        ).toBe(true);
      }),
      { numRuns: 60 },
    );
    // Both sides were reached: real forks, invalid overrides, and mismatched ones.
    expect(tally.forked ?? 0).toBeGreaterThan(5);
    expect(tally.OVERRIDE_INVALID ?? 0).toBeGreaterThan(5);
    expect(tally.OVERRIDE_MISMATCH ?? 0).toBeGreaterThan(0);
  });
});
