import { describe, expect, test } from 'vitest';
import scenario, { baseline, supervised } from '../../../scenarios/claims-triage/index.js';
import { SYSTEM_PROMPT } from '../../../scenarios/claims-triage/builds.js';
import { compareRuns } from '../../../src/analysis/index.js';
import type { Engine } from '../../../src/engine/index.js';
import type { World } from '../../../src/world/index.js';
import { pendingApprovalOf, requireRun } from '../../../src/read/index.js';
import { fieldText } from '../../support/field-text.js';
import { LATER_DAY, memoryEngine, pick, recordClaim, toolOutputOf } from './claims-fixtures.js';

const PAYMENT = 'issue_payment';

/** The claims world on a day, counting the payments that reach the payment desk. */
function countingPayments(at: string): { world: World; payments: { count: number } } {
  const payments = { count: 0 };
  const world = scenario.openWorld({ at, seed: 20260309, latencyMs: 0 });
  const pay = world.tools[PAYMENT];
  if (pay === undefined) throw new Error('the claims world has no payment desk');
  return {
    payments,
    world: {
      ...world,
      tools: {
        ...world.tools,
        [PAYMENT]: (input) => {
          payments.count++;
          return pay(input);
        },
      },
    },
  };
}

/** An engine whose clock ticks a second per reading, from the morning of 9 March. */
function tickingEngine(): Engine {
  let now = Date.parse('2026-03-09T09:00:00.000Z');
  return memoryEngine(() => new Date((now += 1000)));
}

/** CLM-91077 recorded with supervised on 2026-03-09, where its payout (2403 - 500 = 1903) is above the limit. */
async function waitingPayout() {
  const engine = tickingEngine();
  const { world, payments } = countingPayments(LATER_DAY);
  const recorded = await engine.record({
    agent: supervised,
    world,
    input: { claimId: 'CLM-91077' },
    runId: 'a0091077',
  });
  return { engine, world, payments, recorded };
}

const callsOf = (run: { steps: readonly { kind: string; index: number }[] }) =>
  run.steps.map((step) => `${step.kind}#${step.index}`);

describe('the supervised build', () => {
  test('is baseline with issue_payment: the same model, hooks and cap, a prompt that says when to pay', () => {
    expect(supervised.tools.map((tool) => tool.name)).toEqual([...baseline.tools.map((tool) => tool.name), PAYMENT]);
    expect(supervised.tools.filter((tool) => !tool.readOnly).map((tool) => tool.name)).toEqual([
      'estimate_repair',
      PAYMENT,
    ]);
    expect(supervised).toMatchObject({ name: 'claims-triage', model: baseline.model, stepCap: baseline.stepCap });
    expect(supervised.parseOutcome).toBe(baseline.parseOutcome);
    expect(supervised.systemPrompt).toEqual(expect.stringMatching(/^You are the claims-triage assistant/));
    expect(String(supervised.systemPrompt).startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(supervised.systemPrompt).toContain('issue_payment');
    expect(supervised.codeHash).not.toBe(baseline.codeHash);
  });

  test('asks a person before any payment above EUR 1,000, or of an amount that is not a number', () => {
    const rule = supervised.tools.find((tool) => tool.name === PAYMENT)?.requiresApproval;
    if (rule === undefined) throw new Error('issue_payment has no approval rule');
    const needs = (amount: number | string) =>
      rule({ input: { claim_id: 'CLM-91077', amount, currency: 'EUR' }, step: 10, index: 0, state: null });
    expect([needs(1903), needs(1000.01), needs('1903')]).toEqual([true, true, true]);
    expect([needs(1000), needs(779), needs(1)]).toEqual([false, false, false]);
  });

  test("simulates a payment without paying: a fork's stand-in, marked simulated", () => {
    const simulate = supervised.tools.find((tool) => tool.name === PAYMENT)?.simulate;
    if (simulate === undefined) throw new Error('issue_payment has no simulator');
    expect(simulate({ input: { claim_id: 'CLM-91002', amount: 779, currency: 'EUR' }, step: 10, index: 0 })).toEqual({
      payment_id: 'SIM-PAY-CLM-91002-0',
      claim_id: 'CLM-91002',
      amount: 779,
      currency: 'EUR',
      simulated: true,
    });
    expect(() => simulate({ input: { claim_id: 'CLM-91002', amount: -1 }, step: 10, index: 0 })).toThrow(/positive/);
  });
});

describe('CLM-91077 on 2026-03-09 with supervised: a payout of 1903, above the limit', () => {
  test('stops at rest before the payment, the call named by its request hash; nothing is paid', async () => {
    const { engine, payments, recorded } = await waitingPayout();
    expect(recorded).toMatchObject({ mode: 'record', status: 'awaiting-approval', outcome: null, error: null });
    expect(callsOf(recorded)).toEqual([
      'model#0',
      'fetch_claim#0',
      'model#1',
      'ocr_document#0',
      'model#2',
      'estimate_repair#0',
      'model#3',
      'fetch_policy#0',
      'model#4',
    ]);
    expect(payments.count).toBe(0);
    const pending = await pendingApprovalOf(engine.store, await requireRun(engine.store, 'a0091077'));
    expect(pending).toMatchObject({
      step: 10,
      tool: PAYMENT,
      callIndex: 0,
      input: { claim_id: 'CLM-91077', amount: 1903, currency: 'EUR' },
    });
  });

  test('pays once approved, and approves naming the payment', async () => {
    const { engine, world, payments } = await waitingPayout();
    const approved = await engine.approve({ runId: 'a0091077', agent: supervised, world, by: 'dana', note: 'ok' });
    expect(callsOf(approved).slice(9)).toEqual(['approval#0', `${PAYMENT}#0`, 'model#5']);
    expect(approved.steps[9]).toMatchObject({ provenance: 'human', attempt: 2 });
    expect(approved.steps[10]).toMatchObject({ provenance: 'live', attempt: 2 });
    expect(payments.count).toBe(1);
    const paymentId = fieldText(toolOutputOf(approved.steps[10]).payment_id);
    expect(paymentId).toMatch(/^PAY-[0-9a-f]{8}$/);
    expect(approved).toMatchObject({ status: 'completed', outcome: { decision: 'approve', payout: 1903 } });
    expect(fieldText(approved.outcome?.reason)).toContain(`Paid as ${paymentId}.`);
  });

  test("refers the claim, paying nothing, when the reviewer rejects the payment, in the reviewer's words", async () => {
    const { engine, world, payments } = await waitingPayout();
    const rejected = await engine.approve({
      runId: 'a0091077',
      agent: supervised,
      world,
      approved: false,
      by: 'dana',
      note: 'call the holder before paying',
    });
    expect(callsOf(rejected).slice(9)).toEqual(['approval#0', 'model#5']);
    expect(payments.count).toBe(0);
    expect(rejected).toMatchObject({
      status: 'completed',
      outcome: {
        decision: 'refer',
        payout: null,
        reason: 'The payment of EUR 1903 was rejected by dana: call the holder before paying',
      },
    });
  });

  test('replays strictly from the recording, the answer served as recorded: nobody is asked, nothing is paid', async () => {
    const { engine, world, payments } = await waitingPayout();
    const approved = await engine.approve({ runId: 'a0091077', agent: supervised, world, by: 'dana' });
    const replay = await engine.replay({
      agent: supervised,
      cassette: await engine.cassette('a0091077'),
      mode: 'strict',
    });
    expect(replay).toMatchObject({ mode: 'replay:strict', status: 'completed', outcome: approved.outcome });
    expect(replay.steps.map((step) => step.provenance)).toEqual(approved.steps.map(() => 'recorded'));
    expect(replay.steps[9]).toMatchObject({ kind: 'approval', response: approved.steps[9]?.response });
    expect(payments.count).toBe(1);
  });

  test('forked at the answer with a rejection, refers and pays nothing: the branches part at step 10', async () => {
    const { engine, world, payments } = await waitingPayout();
    const approved = await engine.approve({ runId: 'a0091077', agent: supervised, world, by: 'dana' });
    const fork = await engine.fork({
      parentRunId: 'a0091077',
      atStep: 10,
      agent: supervised,
      world,
      override: { kind: 'approval', approved: false, note: 'what if the bank details were wrong?' },
    });
    expect(fork).toMatchObject({ mode: 'fork', status: 'completed', outcome: { decision: 'refer', payout: null } });
    const branch = await engine.getRun(fork.runId);
    expect(callsOf(branch).slice(9)).toEqual(['approval#0', 'model#5']);
    expect(branch.steps[9]).toMatchObject({ provenance: 'override' });
    expect(payments.count).toBe(1);
    const comparison = compareRuns(approved, branch, () => '');
    expect(comparison.firstDivergence).toMatchObject({ step: 10, kind: 'approval', index: 0 });
  });
});

describe('supervised below the limit, and when the payment fails', () => {
  test('CLM-91002 on 2026-03-09 pays its 779 without asking anyone', async () => {
    const { world, payments } = countingPayments(LATER_DAY);
    const run = await tickingEngine().record({ agent: supervised, world, input: { claimId: 'CLM-91002' } });
    expect(run).toMatchObject({ status: 'completed', outcome: { decision: 'approve', payout: 779 } });
    expect(callsOf(run).slice(8)).toEqual(['model#4', `${PAYMENT}#0`, 'model#5']);
    expect(run.steps.some((step) => step.kind === 'approval')).toBe(false);
    expect(pick(run.steps[9]?.request, 'input')).toEqual({ claim_id: 'CLM-91002', amount: 779, currency: 'EUR' });
    expect(payments.count).toBe(1);
    expect(fieldText(run.outcome?.reason)).toContain(`Paid as ${fieldText(toolOutputOf(run.steps[9]).payment_id)}.`);
  });

  test('refers the claim when the payment desk answers with an error', async () => {
    const failing = (world: World): World => ({
      ...world,
      tools: { ...world.tools, [PAYMENT]: () => Promise.reject(new Error('the payment desk is closed')) },
    });
    const run = await recordClaim({ claimId: 'CLM-91002', at: LATER_DAY, agent: supervised, wrapWorld: failing });
    expect(run).toMatchObject({
      status: 'completed',
      outcome: {
        decision: 'refer',
        payout: null,
        reason: 'The payment of EUR 779 could not be made (the payment desk is closed); referring to a human.',
      },
    });
  });

  test('pays nothing on the incident: its payout is negative, so it fails at step 9 as baseline does', async () => {
    const { world, payments } = countingPayments('2026-03-04');
    const run = await tickingEngine().record({ agent: supervised, world, input: { claimId: 'CLM-91077' } });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'VALIDATION_FAILED', step: 9 } });
    expect(payments.count).toBe(0);
  });
});
