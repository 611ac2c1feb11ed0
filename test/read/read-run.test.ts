import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/json/index.js';
import type { StepView } from '../../src/read/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, withIncident, worldAt } from '../support/incident.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

const DIGEST = /^[0-9a-f]{16}$/;

/** Counts the entries every `Array.prototype.slice` copies out of a list of message digests. */
function countDigestCopies(): { readonly copied: () => number } {
  let copied = 0;
  const slice = Array.prototype.slice;
  vi.spyOn(Array.prototype, 'slice').mockImplementation(function (this: unknown[], ...args: [number?, number?]) {
    const out = slice.apply(this, args) as unknown[];
    if (typeof out[0] === 'string' && DIGEST.test(out[0])) copied += out.length;
    return out;
  });
  return { copied: () => copied };
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function longRun(toolCalls: number) {
  const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
  const agent = testAgent({ stepCap: 2 * toolCalls + 1 });
  const run = await engine.record({ agent, world: syntheticWorld({ toolCalls }), input: { task: 'long' } });
  expect(run.steps).toHaveLength(2 * toolCalls + 1);
  return { engine, run };
}

describe('step views', () => {
  it("read a run without copying its digest list: a model request's messages are sliced when they are read", async () => {
    const { engine, run } = await longRun(100);
    const copies = countDigestCopies();
    const view = await engine.getRun(run.runId);
    expect(copies.copied()).toBe(0);
    // Serializing reads each model request's messages once: the output's own size, and no more.
    const modelSteps = view.steps.filter((step) => step.kind === 'model');
    const messages = modelSteps.reduce(
      (sum, step) => sum + ((step.request as JsonObject).messages as string[]).length,
      0,
    );
    const before = copies.copied();
    JSON.stringify(view);
    expect(copies.copied() - before).toBe(messages);
  });

  it('give each model step the digests of the conversation before it, first, as the canonical form orders them', async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } } },
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: 'simulate',
    });
    for (const runId of [incident.runId, fork.runId]) {
      const steps = (await engine.getRun(runId)).steps;
      for (const step of steps.filter((candidate: StepView) => candidate.kind === 'model')) {
        const request = step.request as JsonObject;
        expect(Object.keys(request)[0]).toBe('messages');
        expect(request.messages).toEqual((await engine.checkpoint(runId, step.step - 1)).messageDigests);
        // A plain value: what JSON, a spread and deep equality see is the same array.
        expect(JSON.parse(JSON.stringify(step))).toEqual(step);
        expect({ ...request }.messages).toEqual(request.messages);
      }
    }
  });

  it('are the same whether the driver made them (record) or they were read back', async () => {
    const { engine, run } = await longRun(30);
    expect((await engine.getRun(run.runId)).steps).toEqual(run.steps);
  });
});
