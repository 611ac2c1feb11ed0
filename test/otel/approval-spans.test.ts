import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { exportRunSpans, spanIdOf } from '../../src/otel/index.js';
import type { Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { attributesOf, KIND, spansOfJson } from '../support/otlp-spans.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';

const supervised = refundBuild('supervised');
const RUN = '0000a0f1';
const START = Date.parse('2026-03-04T09:00:00.000Z');
const NOTE = 'checked the invoice';

const engineAt = (store: Store, at = START): Engine => createEngine({ store, clock: () => new Date(at) });

/** ORD-1 recorded with `supervised`: it waits for the refund's approval. */
async function waiting() {
  const store = sqliteStore({ path: ':memory:' });
  const engine = engineAt(store);
  const desk = createRefundDesk();
  const recorded = await engine.record({
    agent: supervised,
    world: desk.world,
    input: { orderId: 'ORD-1' },
    runId: RUN,
  });
  return { store, engine, desk, refundHash: recorded.pendingApproval?.requestHash ?? '' };
}

/** The span of step `step` of run `runId` in an export, and its attributes. */
async function stepSpan(engine: Engine, runId: string, step: number, content: 'reference' | 'full' = 'reference') {
  const spans = spansOfJson((await exportRunSpans(engine, runId, { content })).json);
  const span = spans.find((each) => each.spanId === spanIdOf(runId, step));
  if (span === undefined) throw new Error(`no span of step ${step}`);
  return { span, attributes: attributesOf(span), names: spans.map((each) => each.name) };
}

describe("a person's answer in an OTLP export", () => {
  it('is an approval span of its own, bound to the call by its request hash, with no content by default', async () => {
    const { engine, desk, refundHash } = await waiting();
    await engine.approve({ runId: RUN, agent: supervised, world: desk.world, by: 'dana@example.com', note: NOTE });
    const { span, attributes, names } = await stepSpan(engine, RUN, 6);
    expect(span.name).toBe('approval refund');
    expect(span.kind).toBe(KIND.internal);
    expect(attributes).toMatchObject({
      'forkpoint.kind': 'approval',
      'forkpoint.provenance': 'human',
      'forkpoint.approval.tool': 'refund',
      'forkpoint.approval.decision': 'approved',
      'forkpoint.approval.at': '2026-03-04T09:00:00.000Z',
      'forkpoint.approval.request_hash': refundHash,
    });
    // Nothing was executed: no GenAI operation, no tool; and who answered, the note and the call's input are content.
    for (const key of [
      'gen_ai.operation.name',
      'gen_ai.tool.name',
      'forkpoint.approval.by',
      'forkpoint.approval.note',
      'gen_ai.tool.call.arguments',
    ])
      expect(attributes).not.toHaveProperty(key);
    // The agent span first, then one per step: steps 6 to 8.
    expect(names.slice(6)).toEqual(['approval refund', 'execute_tool refund', 'chat refund-model']);
    // The call it let through still carries the model's call id.
    const refund = await stepSpan(engine, RUN, 7);
    expect(refund.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'toolu_refund_2',
      'forkpoint.request.hash': refundHash,
    });
  });

  it("carries who answered, the reviewer's note and the call's arguments with --content full", async () => {
    const { engine, desk } = await waiting();
    await engine.approve({ runId: RUN, agent: supervised, world: desk.world, by: 'dana@example.com', note: NOTE });
    const { attributes } = await stepSpan(engine, RUN, 6, 'full');
    expect(attributes['forkpoint.approval.by']).toBe('dana@example.com');
    expect(attributes['forkpoint.approval.note']).toBe(NOTE);
    expect(JSON.parse(String(attributes['gen_ai.tool.call.arguments']))).toEqual({ order_id: 'ORD-1', amount: 120 });
  });

  it('says a fork answered otherwise: an override that rejected, and no refund span after it', async () => {
    const { engine, desk } = await waiting();
    await engine.approve({ runId: RUN, agent: supervised, world: desk.world, by: 'dana@example.com' });
    const fork = await engine.fork({
      parentRunId: RUN,
      atStep: 6,
      agent: supervised,
      world: desk.world,
      override: { kind: 'approval', approved: false, note: 'duplicate' },
    });
    const { attributes, names } = await stepSpan(engine, fork.runId, 6);
    expect(attributes).toMatchObject({
      'forkpoint.provenance': 'override',
      'forkpoint.approval.decision': 'rejected',
    });
    expect(names).not.toContain('execute_tool refund');
  });

  it("names on a waiting run's agent span the call it waits for, and no input", async () => {
    const { engine, refundHash } = await waiting();
    const { attributes } = await stepSpan(engine, RUN, 0, 'full');
    expect(attributes).toMatchObject({
      'forkpoint.status': 'awaiting-approval',
      'forkpoint.approval.pending.tool': 'refund',
      'forkpoint.approval.pending.request_hash': refundHash,
    });
    expect(Object.keys(attributes).filter((key) => key.startsWith('forkpoint.approval.pending.'))).toHaveLength(2);
  });

  it('keeps only its position and provenance once the full tier expired', async () => {
    const { store, engine, desk } = await waiting();
    await engine.approve({ runId: RUN, agent: supervised, world: desk.world, by: 'dana@example.com', note: NOTE });
    const later = engineAt(store, START + 73 * 3600_000);
    const { span, attributes } = await stepSpan(later, RUN, 6, 'full');
    expect(span.name).toBe('approval');
    expect(Object.keys(attributes).filter((key) => key.startsWith('forkpoint.approval.'))).toEqual([]);
    expect(JSON.stringify(attributes)).not.toContain('dana');
  });
});
