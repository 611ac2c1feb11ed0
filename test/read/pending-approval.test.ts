import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../src/driver/index.js';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';

const supervised = refundBuild('supervised');
const WAITING = '0000a001';
const START = Date.parse('2026-03-04T09:00:00.000Z');

/** A store that counts the checkpoint restores made through it (`readRestore`, one per restore). */
function countingRestores(store: Store): { store: Store; restores: () => number } {
  let restores = 0;
  const counted: Store = {
    ...store,
    readRestore: (request) => {
      restores++;
      return store.readRestore(request);
    },
  };
  return { store: counted, restores: () => restores };
}

/** An engine whose clock stands at `at` and whose run ids count up. */
function engineOn(store: Store, at = START, options: Partial<EngineOptions> = {}): Engine {
  let ids = 0;
  return createEngine({
    store,
    clock: () => new Date(at),
    newRunId: () => (0x30000000 + ids++).toString(16),
    random: () => 0.25,
    ...options,
  });
}

/** ORD-1 (120) recorded with the supervised build: it stops at rest before the refund. */
async function waitingRun(store: Store = sqliteStore({ path: ':memory:' })) {
  const engine = engineOn(store);
  const desk = createRefundDesk();
  const recorded = await engine.record({
    agent: supervised,
    world: desk.world,
    input: { orderId: 'ORD-1' },
    runId: WAITING,
  });
  return { engine, store, recorded, ...desk };
}

describe("a read of a run that waits for a person's approval", () => {
  it('names the call it waits for, as the recording returned it: tool, input, call number and request hash', async () => {
    const { engine, recorded } = await waitingRun();
    const run = await engine.getRun(WAITING);
    expect(run.status).toBe('awaiting-approval');
    expect(run.pendingApproval).toEqual({
      step: 6,
      index: 0,
      tool: 'refund',
      input: { order_id: 'ORD-1', amount: 120 },
      callIndex: 0,
      requestHash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(recorded.pendingApproval).toEqual(run.pendingApproval);
  });

  it('names none once the run is answered, nor for a run that never waited', async () => {
    const { engine, world } = await waitingRun();
    const approved = await engine.approve({ runId: WAITING, agent: supervised, world, by: 'dana@example.com' });
    expect(approved.pendingApproval).toBeNull();
    expect((await engine.getRun(WAITING)).pendingApproval).toBeNull();
    const below = await engine.record({ agent: supervised, world, input: { orderId: 'ORD-2' } });
    expect(below.status).toBe('completed');
    expect(below.pendingApproval).toBeNull();
    expect((await engine.getRun(below.runId)).pendingApproval).toBeNull();
  });

  it('restores a checkpoint only for the run read: a listing restores none, and says no pending approval', async () => {
    const counting = countingRestores(sqliteStore({ path: ':memory:' }));
    const { engine } = await waitingRun(counting.store);
    const before = counting.restores();
    const page = await engine.runPage({ status: 'awaiting-approval' });
    expect(page.runs.map((run) => run.runId)).toEqual([WAITING]);
    expect(page.runs[0]).not.toHaveProperty('pendingApproval');
    await engine.lineage(WAITING);
    await engine.getRunSummary(WAITING);
    expect(counting.restores()).toBe(before);
    expect((await engine.getRun(WAITING)).pendingApproval).not.toBeNull();
    expect(counting.restores()).toBe(before + 1);
  });

  it('names none once the full tier has expired: the question was a payload of it', async () => {
    const { store } = await waitingRun();
    const later = engineOn(store, START + 73 * 3600_000);
    const run = await later.getRun(WAITING);
    expect(run).toMatchObject({ status: 'awaiting-approval', retention: { expired: true }, pendingApproval: null });
  });

  it('names the call a fork waits for, in its result and in a read of it', async () => {
    const { engine, world } = await waitingRun();
    await engine.approve({ runId: WAITING, agent: supervised, world, by: 'dana' });
    const fork = await engine.fork({
      parentRunId: WAITING,
      atStep: 5,
      agent: supervised,
      world,
      override: { kind: 'model-patch', operations: [{ op: 'replace', path: '/content/1/input/amount', value: 130 }] },
    });
    expect(fork.status).toBe('awaiting-approval');
    expect(fork.pendingApproval).toMatchObject({ step: 6, tool: 'refund', input: { amount: 130 }, callIndex: 0 });
    expect((await engine.getRun(fork.runId)).pendingApproval).toEqual(fork.pendingApproval);
  });

  it('names the call a run interrupted at its approval waits for: its process died before it said so', async () => {
    const base = sqliteStore({ path: ':memory:' });
    let now = 1_000_000;
    // The process dies between the step that asked and the write that records the run as waiting.
    const dying: Store = { ...base, finishRun: () => Promise.reject(new Error('killed')) };
    const desk = createRefundDesk();
    const recording = engineOn(dying, START, { leaseClock: () => now, leaseMs: 30_000 }).record({
      agent: supervised,
      world: desk.world,
      input: { orderId: 'ORD-1' },
      runId: WAITING,
    });
    await expect(recording).rejects.toThrow('killed');
    const reader = engineOn(base, START, { leaseClock: () => now, leaseMs: 30_000 });
    expect((await reader.getRun(WAITING)).pendingApproval).toBeNull();
    now += 30_001;
    const run = await reader.getRun(WAITING);
    expect(run.status).toBe('interrupted');
    expect(run.pendingApproval).toMatchObject({ step: 6, tool: 'refund', callIndex: 0 });
  });
});
