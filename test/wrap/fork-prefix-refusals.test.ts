import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import type { ForkOverride } from '../../src/fork/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from './support/anthropic-claim-loop.js';
import { claimTools, correctedAnswers } from './support/claim-world.js';
import { anthropicThrough, failureOf, recordClaimRun, wrappedClaimTools } from './support/session-fixtures.js';

// A fork by prefix replay that cannot apply is refused, and refused with nothing written: the store holds as many
// runs after as before.

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const engine = createEngine({ store: memoryStore() });
const agent = 'claims-loop';
const merge: ForkOverride = { kind: 'tool-merge', patch: { invoiceTotal: 2050 } };
let recorded = '';
beforeAll(async () => {
  recorded = await recordClaimRun(engine, emulator, agent);
});

const runCount = async () => (await engine.listRuns()).length;
const fork = (atStep: number, override: ForkOverride = merge) =>
  engine.session({ mode: 'fork:prefix', agent, source: recorded, atStep, override });

describe('a fork:prefix that does not fit its step', () => {
  it('refuses a model step with OVERRIDE_MISMATCH, saying what to do instead, and writes no run', async () => {
    const before = await runCount();
    for (const step of [1, 3, 7]) {
      const error = await failureOf(() => fork(step));
      expect(error.code).toBe('OVERRIDE_MISMATCH');
      expect(error.message).toMatch(/model step.*replay:fidelity/);
    }
    expect(await runCount()).toBe(before);
  });

  it('refuses a step the recording does not have with STEP_OUT_OF_RANGE, and writes no run', async () => {
    const before = await runCount();
    for (const step of [0, -1, 8, 99, 2.5, Number.NaN]) {
      const error = await failureOf(() => fork(step));
      expect(error.code).toBe('STEP_OUT_OF_RANGE');
      expect(error.message).toContain('steps 1 to 7');
    }
    expect(await runCount()).toBe(before);
  });

  it('refuses an override that is not one with OVERRIDE_INVALID, and writes no run', async () => {
    const before = await runCount();
    const error = await failureOf(() => fork(4, { kind: 'tool-nonsense' } as unknown as ForkOverride));
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(await runCount()).toBe(before);
  });
});

describe('a fork:prefix whose loop does not reach step N as recorded', () => {
  it('writes nothing when the loop stops before step N: close() throws STEP_OUT_OF_RANGE', async () => {
    const before = await runCount();
    const session = await fork(4);
    const tools = wrappedClaimTools(session, claimTools());
    const sent = emulator.received().length;
    // The loop gives up after the claim (step 2), before the OCR step the fork changes.
    const stopped = anthropicClaimLoop(anthropicThrough(session, emulator.url), {
      ...tools,
      ocr_document: () => Promise.reject(new Error('the loop gave up')),
    });
    await expect(stopped).rejects.toThrow('the loop gave up');
    const error = await failureOf(() => session.close({ error: new Error('the loop gave up') }));
    expect(error.code).toBe('STEP_OUT_OF_RANGE');
    expect(error.message).toMatch(/ended before step 4.*nothing was written/);
    expect(await runCount()).toBe(before);
    // The prefix came from the recording.
    expect(emulator.received().length - sent).toBe(0);
  });

  it('writes nothing when no call is made at all', async () => {
    const before = await runCount();
    const session = await fork(6);
    const error = await failureOf(() => session.close());
    expect(error.code).toBe('STEP_OUT_OF_RANGE');
    expect(await runCount()).toBe(before);
  });

  it("stops with OVERRIDE_MISMATCH when the loop's step N is another call, and writes nothing", async () => {
    const before = await runCount();
    const session = await fork(4);
    const tools = wrappedClaimTools(session, claimTools());
    emulator.script(correctedAnswers().map((response) => ({ kind: 'response', response })));
    // The loop calls the estimate where the OCR was: its step 4 is estimate_repair#0, not ocr_document#0.
    const swapped = anthropicClaimLoop(anthropicThrough(session, emulator.url), {
      ...tools,
      ocr_document: (input) => tools.estimate_repair!(input),
    });
    const thrown = await failureOf(() => swapped);
    expect(thrown.code).toBe('OVERRIDE_MISMATCH');
    expect(thrown.message).toMatch(/step 4 is estimate_repair#0.*ocr_document#0/);
    // close() says why the fork did not apply, not that the loop ended early: it did reach step 4.
    const error = await failureOf(() => session.close());
    expect(error.code).toBe('OVERRIDE_MISMATCH');
    expect(await runCount()).toBe(before);
  });

  it('throws the divergence at close() when the loop leaves the recorded prefix, and writes nothing', async () => {
    const before = await runCount();
    const session = await fork(4);
    const sent = emulator.received().length;
    const changed = anthropicClaimLoop(
      anthropicThrough(session, emulator.url),
      wrappedClaimTools(session, claimTools()),
      {
        system: 'You triage claims, briefly.',
      },
    );
    expect((await failureOf(() => changed)).code).toBe('REPLAY_DIVERGED');
    const error = await failureOf(() => session.close());
    expect(error.code).toBe('REPLAY_DIVERGED');
    expect(error.message).toMatch(/model#0 \(step 1\)/);
    expect(await runCount()).toBe(before);
    expect(emulator.received().length - sent).toBe(0);
  });
});
