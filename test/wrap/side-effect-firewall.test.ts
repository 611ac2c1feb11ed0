import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import type { SideEffectOption } from '../../src/firewall/index.js';
import type { JsonObject } from '../../src/json/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import type { Session, WrapToolOptions } from '../../src/wrap/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from './support/anthropic-claim-loop.js';
import { claimTools, correctedAnswers, decisionOf } from './support/claim-world.js';
import { anthropicThrough, forkpointErrorIn, recordClaimRun } from './support/session-fixtures.js';

// After a fork's step, a session calls a tool that was not wrapped as read-only only when its sideEffects name
// it: the estimate (step 6, after the fork at the OCR step 4) is such a tool here, and the claim and OCR tools,
// side-effecting too, are answered from the recording before the fork, so they are never called either way.

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const engine = createEngine({ store: memoryStore() });
const agent = 'claims-loop';
let recorded = '';
beforeAll(async () => {
  recorded = await recordClaimRun(engine, emulator, agent);
});

/** Runs the fork at the OCR step with every tool wrapped without readOnly; gives the loop's end and the run. */
async function forkWith(sideEffects: SideEffectOption | undefined, estimate: WrapToolOptions = {}) {
  emulator.script(correctedAnswers().map((response) => ({ kind: 'response', response })));
  const session: Session = await engine.session({
    mode: 'fork:prefix',
    agent,
    source: recorded,
    atStep: 4,
    override: { kind: 'tool-merge', patch: { invoiceTotal: 2050 } },
    ...(sideEffects === undefined ? {} : { sideEffects }),
  });
  const tools = claimTools();
  const wrap = (name: 'fetch_claim' | 'ocr_document') => session.tool<JsonObject, unknown>(name, tools[name]);
  const loop = anthropicClaimLoop(anthropicThrough(session, emulator.url), {
    fetch_claim: wrap('fetch_claim'),
    ocr_document: wrap('ocr_document'),
    estimate_repair: session.tool<JsonObject, unknown>('estimate_repair', tools.estimate_repair, estimate),
  });
  const ended = await loop.then(
    (text) => ({ text, error: undefined }),
    (error: unknown) => ({ text: undefined, error }),
  );
  const run = await session.close(
    ended.text === undefined ? { error: ended.error } : { outcome: decisionOf(ended.text) },
  );
  return { ended, run, tools };
}

describe('the side-effect firewall of a fork:prefix', () => {
  it('stops with SIDE_EFFECT_BLOCKED at a tool not wrapped as read-only, and never calls it', async () => {
    const { ended, run, tools } = await forkWith(undefined);
    const error = forkpointErrorIn(ended.error);
    if (error === undefined) throw new Error(`the loop did not stop with a ForkpointError: ${String(ended.error)}`);
    expect(error.code).toBe('SIDE_EFFECT_BLOCKED');
    expect(error.message).toMatch(/estimate_repair#0 \(step 6\) was not called/);
    expect(error.message).toContain("sideEffects: { tools: { estimate_repair: 'live' } }");
    expect(tools.calls).toEqual({ fetch_claim: 0, ocr_document: 0, estimate_repair: 0 });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'SIDE_EFFECT_BLOCKED', step: 6 });
    expect(run.steps.map((step) => `${step.kind}#${step.index}`)).toEqual([
      'model#0',
      'fetch_claim#0',
      'model#1',
      'ocr_document#0',
      'model#2',
    ]);
  });

  it("lets the tool through with sideEffects { tools: { estimate_repair: 'live' } }, the step marked as a side effect", async () => {
    const { run, tools } = await forkWith({ tools: { estimate_repair: 'live' } });
    expect(run.status).toBe('completed');
    expect(run.outcome).toEqual({ decision: 'approve' });
    expect(tools.calls).toEqual({ fetch_claim: 0, ocr_document: 0, estimate_repair: 1 });
    const estimate = run.steps.find((step) => step.kind === 'estimate_repair');
    expect(estimate).toMatchObject({ step: 6, provenance: 'live', sideEffect: true });
    expect(run.steps.filter((step) => step.sideEffect)).toHaveLength(1);
    expect(run.sideEffects).toEqual({ default: 'refuse', tools: { estimate_repair: 'live' } });
  });

  it("answers with the tool's simulator under 'simulate': provenance simulated, the function never called", async () => {
    const simulated: JsonObject[] = [];
    const { run, tools } = await forkWith(
      { tools: { estimate_repair: 'simulate' } },
      {
        simulate: ({ input, step, index }) => {
          simulated.push({ input, step, index });
          return { estimate: 1900, plausible: true, simulated: true };
        },
      },
    );
    expect(run.status).toBe('completed');
    expect(tools.calls.estimate_repair).toBe(0);
    expect(simulated).toEqual([{ input: { invoiceTotal: 2050 }, step: 6, index: 0 }]);
    const estimate = run.steps.find((step) => step.kind === 'estimate_repair');
    expect(estimate).toMatchObject({ step: 6, provenance: 'simulated', sideEffect: false });
  });

  it("stops under 'simulate' when the tool has no simulator, and never calls it", async () => {
    const { run, tools } = await forkWith({ tools: { estimate_repair: 'simulate' } });
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('SIDE_EFFECT_BLOCKED');
    expect(tools.calls.estimate_repair).toBe(0);
  });
});
