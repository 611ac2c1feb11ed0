import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { probeDrift } from '../../src/workflows/index.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';

describe('probeDrift over a run a person approved', () => {
  it("asks the world again for its read-only calls only: the answer is a person's, the refund moves money", async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const supervised = refundBuild('supervised');
    const desk = createRefundDesk();
    const recorded = await engine.record({ agent: supervised, world: desk.world, input: { orderId: 'ORD-1' } });
    await engine.approve({ runId: recorded.runId, agent: supervised, world: desk.world, by: 'dana' });
    const before = { ...desk.calls };
    const report = await probeDrift(engine, { runId: recorded.runId, tools: supervised.tools, world: desk.world });
    expect(report.steps.map((step) => [`${step.kind}#${step.index}`, step.status])).toEqual([
      ['lookup_order#0', 'unchanged'],
      ['lookup_customer#0', 'unchanged'],
      ['approval#0', 'skipped'],
      ['refund#0', 'skipped'],
    ]);
    expect(report.steps[2]).toMatchObject({
      reason: "a person's answer, not the world's: there is nothing to ask again",
    });
    expect(desk.calls.refund).toBe(before.refund);
  });
});
