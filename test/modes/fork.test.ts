import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ForkOverride } from '../../src/fork/index.js';
import { compareRuns } from '../../src/analysis/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { StepView } from '../../src/engine/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import { build, withIncident, worldAt } from '../support/incident.js';
import { rejectionCode } from '../support/thrown.js';

const corrected: ForkOverride = {
  kind: 'tool-merge',
  patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } },
};
// estimate_repair registers an estimate: a fork that goes past it asks its simulator by name.
const simulateEstimates = { tools: { estimate_repair: 'simulate' } } as const;

describe('fork', () => {
  it('forks the incident at step 4 with the corrected OCR value: approved with a positive payout', async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: simulateEstimates,
    });
    const forkRun = await engine.getRun(fork.runId);
    expect(fork).toMatchObject({
      mode: 'fork',
      status: 'completed',
      parent: { runId: '9b40c1d5', atStep: 4, override: corrected },
      worldAt: '2026-03-04',
    });
    expect(fork.outcome).toMatchObject({ decision: 'approve' });
    expect(fork.outcome?.payout).toBeGreaterThan(0);
    expect(forkRun.steps.map((step) => step.provenance)).toEqual([
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
    expect(forkRun.steps[3]!.response).toMatchObject({
      output: {
        ocr_model: 'v1',
        fields: { damage_area_cm2: { value: 2050, confidence: 0.97 }, claim_reference: { value: 'CLM-91077' } },
      },
    });
    expect(forkRun.steps[3]!.requestHash).toBe(incident.steps[3]!.requestHash);
  });

  it('stores only its own tail and leaves the parent as it was', async () => {
    const { engine, incident } = await withIncident();
    const before = await engine.store.readSteps(incident.runId);
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: simulateEstimates,
    });
    expect((await engine.store.readSteps(fork.runId)).map((row) => row.step)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(await engine.store.readSteps(incident.runId)).toEqual(before);
    expect(await engine.getRun(incident.runId)).toEqual(incident);
  });

  it('compares with its parent: first divergence at step 4 on the response, failed against completed', async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: simulateEstimates,
    });
    const comparison = compareRuns(incident, await engine.getRun(fork.runId), (step) => step.kind);
    expect(comparison.firstDivergence).toEqual({ step: 4, kind: 'ocr_document', index: 0, on: 'response' });
    expect(comparison.a.status).toBe('failed');
    expect(comparison.b.status).toBe('completed');
    expect(comparison.steps.slice(0, 3).every((step) => step.same)).toBe(true);
  });

  it('changes the system prompt from a model step on, and records it as the override', async () => {
    const { engine, incident } = await withIncident();
    const system = 'You triage claims. Refer any OCR reading below confidence 0.5 to a human.';
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 1,
      override: { kind: 'system-prompt', system },
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
    });
    const forkRun = await engine.getRun(fork.runId);
    expect(fork.parent.override).toEqual({ kind: 'system-prompt', system });
    expect(forkRun.steps[0]).toMatchObject({ provenance: 'live', request: { system } });
    expect(forkRun.steps[0]!.requestHash).not.toBe(incident.steps[0]!.requestHash);
    expect((await restoreCheckpoint(engine.store, fork.runId, 0)).context.system).toBe(system);
    expect((await restoreCheckpoint(engine.store, incident.runId, 0)).context.system).not.toBe(system);
  });

  it('changes the model from a model step on (claude-sonnet-5 refers the low-confidence reading)', async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 5,
      override: { kind: 'model', model: 'claude-sonnet-5' },
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
    });
    const forkRun = await engine.getRun(fork.runId);
    expect(fork.parent.override).toEqual({ kind: 'model', model: 'claude-sonnet-5' });
    expect(forkRun.steps[4]).toMatchObject({ provenance: 'live', request: { model: 'claude-sonnet-5' } });
    expect(fork.outcome).toMatchObject({ decision: 'refer' });
  });

  it('forks a fork, including at the step where the first fork changed the prompt', async () => {
    const { engine, incident } = await withIncident();
    const first = await engine.fork({
      parentRunId: incident.runId,
      atStep: 3,
      override: { kind: 'system-prompt', system: 'Changed.' },
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
    });
    const second = await engine.fork({
      parentRunId: first.runId,
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
    });
    expect((await engine.getRun(second.runId)).steps.map((step) => step.provenance).slice(0, 4)).toEqual([
      'inherited',
      'inherited',
      'inherited',
      'override',
    ]);
    const observed = (steps: readonly StepView[]) =>
      steps.map(({ requestHash, response }) => ({ requestHash, response }));
    expect(observed((await engine.getRun(second.runId)).steps.slice(0, 3))).toEqual(
      observed((await engine.getRun(first.runId)).steps.slice(0, 3)),
    );
    expect((await restoreCheckpoint(engine.store, second.runId, 3)).context.system).toBe('Changed.');
    const atTheChange = await engine.fork({
      parentRunId: first.runId,
      atStep: 3,
      override: { kind: 'model', model: 'claude-sonnet-5' },
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
    });
    expect((await engine.getRun(atTheChange.runId)).steps[2]).toMatchObject({ request: { system: 'Changed.' } });
  });

  it.each([
    [99, corrected, 'STEP_OUT_OF_RANGE'],
    [0, corrected, 'STEP_OUT_OF_RANGE'],
    [3, corrected, 'OVERRIDE_MISMATCH'],
    [4, { kind: 'model' as const, model: 'claude-sonnet-5' }, 'OVERRIDE_MISMATCH'],
  ])('at step %s with %j is %s, and writes nothing', async (atStep, override, code) => {
    const { engine, incident } = await withIncident();
    expect(
      await rejectionCode(() =>
        engine.fork({
          parentRunId: incident.runId,
          atStep,
          override,
          agent: build('baseline'),
          world: worldAt('2026-03-04'),
        }),
      ),
    ).toBe(code);
    expect(await engine.listRuns()).toHaveLength(1);
  });

  it('lists its lineage with the parent', async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: simulateEstimates,
    });
    const replay = await engine.replay({
      agent: build('patched'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    const again = await engine.fork({
      parentRunId: fork.runId,
      atStep: 9,
      override: { kind: 'model', model: 'claude-sonnet-5' },
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
    });
    const lineage = await engine.lineage(fork.runId);
    expect(lineage.ancestors.map((run) => run.runId)).toEqual(['9b40c1d5']);
    expect(lineage.tree.children.map((node) => [node.run.runId, node.relation])).toEqual([[again.runId, 'fork']]);
    const root = await engine.lineage('9b40c1d5');
    expect(root.tree.children.map((node) => [node.run.runId, node.relation])).toEqual([
      [fork.runId, 'fork'],
      [replay.runId, 'replay'],
    ]);
  });
});

describe('fork (property)', () => {
  it('a fork at any step N shares steps 1..N-1, hashes and checkpoints, with its parent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 2 }),
        fc.nat(),
        async (toolCalls, batch, pick) => {
          const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
          const agent = testAgent();
          const parent = await engine.record({
            agent,
            world: syntheticWorld({ toolCalls, batch }),
            input: { n: 1 },
          });
          const atStep = 1 + (pick % parent.steps.length);
          const kind = parent.steps[atStep - 1]!.kind;
          const override: ForkOverride =
            kind === 'model'
              ? { kind: 'system-prompt', system: 'other' }
              : { kind: 'tool-result', output: { replaced: true } };
          const fork = await engine.fork({
            parentRunId: parent.runId,
            atStep,
            override,
            agent,
            world: syntheticWorld({ toolCalls, batch, idPrefix: 'other' }),
          });
          const forkRun = await engine.getRun(fork.runId);
          expect(forkRun.steps.slice(0, atStep - 1).map((step) => step.requestHash)).toEqual(
            parent.steps.slice(0, atStep - 1).map((step) => step.requestHash),
          );
          expect(forkRun.steps.slice(0, atStep - 1).every((step) => step.provenance === 'inherited')).toBe(true);
          for (let step = 0; step < atStep - 1; step++) {
            expect(await restoreCheckpoint(engine.store, fork.runId, step)).toEqual(
              await restoreCheckpoint(engine.store, parent.runId, step),
            );
          }
          expect((await engine.store.readSteps(fork.runId)).every((row) => row.step >= atStep)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});
