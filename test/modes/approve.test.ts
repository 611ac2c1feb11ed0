import { describe, expect, it } from 'vitest';
import { forkpointMatchers } from '../../src/testing/index.js';
import type { ForkOverride } from '../../src/fork/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { pendingApprovalOf, requireRun } from '../../src/read/index.js';
import type { StepView } from '../../src/read/index.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';
import { rejectionCode } from '../support/thrown.js';
import { deterministicEngine } from '../support/deterministic-engine.js';

expect.extend(forkpointMatchers);

const supervised = refundBuild('supervised');
const RECORDED = '0000a001';

/** A refund of ORD-1 (120, over the limit) recorded with the supervised build: it stops at the refund. */
async function waitingDesk() {
  const engine = deterministicEngine({ firstId: 0x20000000, random: () => 0.25 });
  const desk = createRefundDesk();
  const recorded = await engine.record({
    agent: supervised,
    world: desk.world,
    input: { orderId: 'ORD-1' },
    runId: RECORDED,
  });
  return { engine, ...desk, recorded };
}

const callOf = (step: StepView | undefined) => (step === undefined ? undefined : `${step.kind}#${step.index}`);

describe('approvals', () => {
  it('stop a recording at rest before the call that needs one, checkpointed and naming the exact call', async () => {
    const { engine, calls, recorded } = await waitingDesk();
    expect(recorded).toMatchObject({ mode: 'record', status: 'awaiting-approval', error: null, outcome: null });
    expect(recorded.steps.map(callOf)).toEqual([
      'model#0',
      'lookup_order#0',
      'model#1',
      'lookup_customer#0',
      'model#2',
    ]);
    expect(calls.refund).toBe(0);
    const checkpoint = await restoreCheckpoint(engine.store, RECORDED, 5);
    expect(checkpoint.value).toBe('awaitingApproval');
    const pending = await pendingApprovalOf(engine.store, await requireRun(engine.store, RECORDED));
    expect(pending).toMatchObject({
      step: 6,
      index: 0,
      tool: 'refund',
      input: { order_id: 'ORD-1', amount: 120 },
      callIndex: 0,
    });
    expect(pending?.requestHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('let a run below the limit go on without asking anyone', async () => {
    const engine = deterministicEngine({ firstId: 0x20000000, random: () => 0.25 });
    const desk = createRefundDesk();
    const run = await engine.record({ agent: supervised, world: desk.world, input: { orderId: 'ORD-2' } });
    expect(run.status).toBe('completed');
    expect(run.steps.some((step) => step.kind === 'approval')).toBe(false);
    expect(desk.calls.refund).toBe(1);
  });

  it('continue the run once a person approves: the answer is a human step bound to the call, then the call is made', async () => {
    const { engine, calls, world } = await waitingDesk();
    const pending = await pendingApprovalOf(engine.store, await requireRun(engine.store, RECORDED));
    const approved = await engine.approve({
      runId: RECORDED,
      agent: supervised,
      world,
      by: 'dana@example.com',
      note: 'checked the invoice',
      requestHash: pending?.requestHash ?? '',
    });
    expect(approved).toMatchObject({ mode: 'record', status: 'completed', outcome: { refunded: 120 } });
    const answer = approved.steps[5];
    expect(answer).toMatchObject({ step: 6, kind: 'approval', index: 0, provenance: 'human', attempt: 2 });
    expect(answer?.response).toMatchObject({
      output: {
        approved: true,
        by: 'dana@example.com',
        note: 'checked the invoice',
        requestHash: pending?.requestHash,
      },
      isError: false,
    });
    expect(approved.steps[6]).toMatchObject({ kind: 'refund', provenance: 'live', requestHash: pending?.requestHash });
    expect(calls.refund).toBe(1);
    expect(approved).toHaveCalledWith('refund', { order_id: 'ORD-1', amount: 120 });
    expect(approved.resumes).toMatchObject([{ attempt: 2, fromStep: 6, after: 'awaiting-approval' }]);
  });

  it('stand a rejection as the call result the model sees: the call is never made', async () => {
    const { engine, calls, world } = await waitingDesk();
    const rejected = await engine.approve({
      runId: RECORDED,
      agent: supervised,
      world,
      approved: false,
      by: 'dana@example.com',
      note: 'duplicate of an earlier refund',
    });
    expect(calls.refund).toBe(0);
    expect(rejected.steps.map(callOf)).toEqual([
      'model#0',
      'lookup_order#0',
      'model#1',
      'lookup_customer#0',
      'model#2',
      'approval#0',
      'model#3',
    ]);
    expect(rejected.steps[5]?.response).toMatchObject({ output: { approved: false }, isError: true });
    // As a user's own suite asserts it: the rejected call never happened, the lookups did.
    expect(rejected).not.toHaveCalled('refund');
    expect(rejected).toHaveTrajectory(['lookup_order', 'lookup_customer'], { order: 'strict' });
    expect(rejected).toMatchObject({ status: 'completed', outcome: { refunded: 0 } });
  });

  it('refuse, writing nothing, an answer about another call, a second answer, or one for a run that waits for none', async () => {
    const { engine, world } = await waitingDesk();
    const before = await engine.getRun(RECORDED);
    const answer = { runId: RECORDED, agent: supervised, world, by: 'dana' } as const;
    expect(await rejectionCode(() => engine.approve({ ...answer, requestHash: '0123456789abcdef' }))).toBe(
      'APPROVAL_MISMATCH',
    );
    expect(await rejectionCode(() => engine.approve({ ...answer, by: '  ' }))).toBe('INPUT_INVALID');
    expect(await engine.getRun(RECORDED)).toEqual(before);

    await engine.approve(answer);
    const after = await engine.getRun(RECORDED);
    expect(await rejectionCode(() => engine.approve(answer))).toBe('APPROVAL_NOT_PENDING');
    expect(await engine.getRun(RECORDED)).toEqual(after);
  });

  it('are served from the recording in a strict replay: nobody is asked, no refund is made', async () => {
    const { engine, calls, world } = await waitingDesk();
    await engine.approve({ runId: RECORDED, agent: supervised, world, by: 'dana' });
    const refundsBefore = calls.refund;
    const replay = await engine.replay({
      agent: supervised,
      cassette: await engine.cassette(RECORDED),
      mode: 'strict',
    });
    expect(replay).toMatchObject({ mode: 'replay:strict', status: 'completed', outcome: { refunded: 120 } });
    expect(replay.steps[5]).toMatchObject({ kind: 'approval', provenance: 'recorded' });
    expect(replay.steps.every((step) => step.provenance === 'recorded')).toBe(true);
    expect(calls.refund).toBe(refundsBefore);
  });

  it('can be answered otherwise in a fork: the reviewer who approved rejects, and the branch pays nothing', async () => {
    const { engine, calls, world } = await waitingDesk();
    await engine.approve({ runId: RECORDED, agent: supervised, world, by: 'dana' });
    const refunds = calls.refund;
    const fork = await engine.fork({
      parentRunId: RECORDED,
      atStep: 6,
      agent: supervised,
      world,
      override: { kind: 'approval', approved: false, note: 'what if it had been a duplicate?' },
    });
    expect(fork).toMatchObject({ mode: 'fork', status: 'completed', outcome: { refunded: 0 } });
    expect(fork.ownSteps[0]).toMatchObject({ step: 6, kind: 'approval', provenance: 'override' });
    expect(fork.ownSteps[0]?.response).toMatchObject({ output: { approved: false, by: 'dana' }, isError: true });
    expect(fork.parent.changes).toContainEqual(expect.objectContaining({ path: 'approved' }));
    expect(calls.refund).toBe(refunds);
  });

  it('never carry over to a call the model made with other arguments: a fork that asks for 130 waits again', async () => {
    const { engine, world } = await waitingDesk();
    await engine.approve({ runId: RECORDED, agent: supervised, world, by: 'dana' });
    const original = await engine.getRun(RECORDED);
    const asked = original.steps[4]?.response;
    const fork = await engine.fork({
      parentRunId: RECORDED,
      atStep: 5,
      agent: supervised,
      world,
      override: {
        kind: 'model-patch',
        operations: [{ op: 'replace', path: '/content/1/input/amount', value: 130 }],
      },
    });
    expect(asked).toBeDefined();
    expect(fork.status).toBe('awaiting-approval');
    const pending = await pendingApprovalOf(engine.store, await requireRun(engine.store, fork.runId));
    expect(pending).toMatchObject({ tool: 'refund', input: { amount: 130 } });
    expect(pending?.requestHash).not.toBe(original.steps[6]?.requestHash);
  });

  it('refuse an override of the wrong kind at an answer, and an approval override where nobody answered', async () => {
    const { engine, world } = await waitingDesk();
    await engine.approve({ runId: RECORDED, agent: supervised, world, by: 'dana' });
    const fork = (atStep: number, override: ForkOverride) => () =>
      engine.fork({ parentRunId: RECORDED, atStep, agent: supervised, world, override });
    expect(await rejectionCode(fork(6, { kind: 'tool-result', output: { approved: false } }))).toBe(
      'OVERRIDE_MISMATCH',
    );
    expect(await rejectionCode(fork(7, { kind: 'approval', approved: false }))).toBe('OVERRIDE_MISMATCH');
    expect(await rejectionCode(fork(6, { kind: 'approval', approved: true }))).toBe('OVERRIDE_INVALID');
  });
});

describe('a replay', () => {
  it('never waits for a person: strictly it diverges at the new question, going live it stops with APPROVAL_REQUIRED', async () => {
    const engine = deterministicEngine({ firstId: 0x20000000, random: () => 0.25 });
    const desk = createRefundDesk();
    // Recorded by a build that asks nobody: its cassette holds no answer.
    await engine.record({
      agent: refundBuild('baseline'),
      world: desk.world,
      input: { orderId: 'ORD-1' },
      runId: RECORDED,
    });
    const cassette = await engine.cassette(RECORDED);
    const strict = await engine.replay({ agent: supervised, cassette, mode: 'strict' });
    expect(strict).toMatchObject({
      status: 'diverged',
      divergence: { kind: 'approval', index: 0, classification: 'new-call' },
    });
    const refunds = desk.calls.refund;
    const live = await engine.replay({
      agent: supervised,
      cassette,
      mode: 'fidelity',
      onMiss: 'live',
      world: desk.world,
    });
    expect(live).toMatchObject({
      mode: 'replay:fidelity',
      status: 'failed',
      error: { code: 'APPROVAL_REQUIRED', step: 6 },
    });
    expect(desk.calls.refund).toBe(refunds);
  });
});

describe('two answers at once', () => {
  it('let one go on and refuse the other with APPROVAL_NOT_PENDING, the run written once', async () => {
    const { engine, world, calls } = await waitingDesk();
    const answer = (by: string) =>
      engine.approve({ runId: RECORDED, agent: supervised, world, by }).then(
        (result) => ({ by, result }),
        (error: unknown) => ({ by, error }),
      );
    const settled = await Promise.all([answer('dana'), answer('lee')]);
    const won = settled.filter((one) => 'result' in one);
    const lost = settled.filter((one) => 'error' in one);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0] !== undefined && 'error' in lost[0] && lost[0].error).toMatchObject({
      code: 'APPROVAL_NOT_PENDING',
    });
    const run = await engine.getRun(RECORDED);
    expect(run.steps.filter((step) => step.kind === 'approval')).toHaveLength(1);
    expect(run.steps[5]?.response).toMatchObject({ output: { by: won[0]?.by } });
    expect(run.resumes).toHaveLength(1);
    expect(calls.refund).toBe(1);
  });
});
