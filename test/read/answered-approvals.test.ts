import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { answeredApprovalsOf } from '../../src/read/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';

const supervised = refundBuild('supervised');

async function answered(approved: boolean) {
  const engine = createEngine({
    store: sqliteStore({ path: ':memory:' }),
    clock: () => new Date('2026-03-04T09:00:00Z'),
  });
  const desk = createRefundDesk();
  const recorded = await engine.record({ agent: supervised, world: desk.world, input: { orderId: 'ORD-1' } });
  const run = await engine.approve({
    runId: recorded.runId,
    agent: supervised,
    world: desk.world,
    approved,
    by: 'dana@example.com',
    note: 'checked',
  });
  return { run, hash: recorded.pendingApproval?.requestHash };
}

describe('answeredApprovalsOf', () => {
  it('reads an approval step as the answer about its call, and finds the step that made the call', async () => {
    const { run, hash } = await answered(true);
    const approvals = answeredApprovalsOf(run.steps);
    expect([...approvals.keys()]).toEqual([6]);
    expect(approvals.get(6)).toEqual({
      approved: true,
      by: 'dana@example.com',
      at: '2026-03-04T09:00:00.000Z',
      note: 'checked',
      requestHash: hash,
      step: 6,
      index: 0,
      tool: 'refund',
      input: { amount: 120, order_id: 'ORD-1' },
      callIndex: 0,
      callStep: 7,
    });
    expect(run.steps[6]).toMatchObject({ kind: 'refund', index: 0, requestHash: hash });
  });

  it('leaves a rejected call without a step: it was never made', async () => {
    const { run } = await answered(false);
    expect(answeredApprovalsOf(run.steps).get(6)).toMatchObject({ approved: false, callIndex: 0, callStep: null });
  });

  it('leaves out a step that says it is an approval but holds no answer', () => {
    const step = { step: 1, kind: 'approval', index: 0, requestHash: '0'.repeat(16), request: {}, response: {} };
    expect(answeredApprovalsOf([step]).size).toBe(0);
  });
});
