import { verifyRun, probeDrift } from '../../src/workflows/index.js';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import type { ForkOverride } from '../../src/fork/index.js';
import type { RecordResult } from '../../src/modes/index.js';
import type { SideEffectOption } from '../../src/firewall/index.js';
import type { World } from '../../src/world/index.js';
import { divergenceReport } from '../../src/workflows/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import type { RefundBuildName, RefundCalls } from '../support/refund-agent.js';
import { createRefundDesk, refundBuild } from '../support/refund-agent.js';
import { deterministicEngine } from '../support/deterministic-engine.js';

const PARENT = '0000aaaa';
// The customer's order was 80, not 120: what would the desk have refunded?
const CHEAPER: ForkOverride = { kind: 'tool-merge', patch: { amount: 80 } };
const REFUSE = { default: 'refuse', tools: {} };

const baseline = refundBuild('baseline');
const terse = refundBuild('terse');

interface Desk {
  readonly engine: Engine;
  readonly recording: RecordResult;
  readonly world: World;
  readonly calls: RefundCalls;
}

/** An engine holding the original run of order ORD-1: refund called live exactly once, as it should be. */
async function recordedDesk(options: { notify?: boolean } = {}): Promise<Desk> {
  const engine = deterministicEngine({ random: () => 0.25 });
  const { world, calls } = createRefundDesk(options);
  const recording = await engine.record({
    agent: baseline,
    world,
    input: { orderId: 'ORD-1' },
    runId: PARENT,
  });
  return { engine, recording, world, calls };
}

const forkOf = (desk: Desk, extra: { sideEffects?: SideEffectOption; build?: RefundBuildName } = {}) =>
  desk.engine.fork({
    parentRunId: PARENT,
    atStep: 2,
    override: CHEAPER,
    agent: extra.build === undefined ? baseline : refundBuild(extra.build),
    world: desk.world,
    ...(extra.sideEffects === undefined ? {} : { sideEffects: extra.sideEffects }),
  });

async function codeOf(work: () => Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await work();
  } catch (error) {
    if (isForkpointError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

const provenances = (run: { steps: readonly { provenance: string }[] }) => run.steps.map((step) => step.provenance);
const sideEffects = (run: { steps: readonly { sideEffect: boolean }[] }) => run.steps.map((step) => step.sideEffect);

describe('the original run (record) meets the world as it is', () => {
  it('refunds exactly once, live, unmarked and without a firewall', async () => {
    const { recording, calls } = await recordedDesk();
    expect(recording).toMatchObject({
      mode: 'record',
      status: 'completed',
      outcome: { refunded: 120, refund_id: 'RF-ORD-1-1' },
      sideEffects: null,
    });
    expect(recording.steps.map((step) => `${step.kind}#${step.index}`)).toEqual([
      'model#0',
      'lookup_order#0',
      'model#1',
      'lookup_customer#0',
      'model#2',
      'refund#0',
      'model#3',
    ]);
    expect(provenances(recording)).toEqual(Array(7).fill('live'));
    expect(sideEffects(recording)).toEqual(Array(7).fill(false));
    expect(calls).toEqual({ model: 4, lookup_order: 1, lookup_customer: 1, refund: 1, notify_customer: 0 });
  });
});

describe('by default, no mode past the recording refunds again', () => {
  it('a fork at lookup_order with a changed order stops at the refund: SIDE_EFFECT_BLOCKED, every step before it kept, refund not called', async () => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk);
    expect(fork).toMatchObject({
      mode: 'fork',
      status: 'failed',
      outcome: null,
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      sideEffects: REFUSE,
    });
    expect(fork.error!.message).toMatch(
      /^refund#0 \(step 6\) was not called: refund is not read-only, and a fork calls side-effecting tools only when asked by name/,
    );
    expect(fork.error!.message).toMatch(/--side-effects refund=simulate or refund=live/);
    expect(provenances(await desk.engine.getRun(fork.runId))).toEqual([
      'inherited',
      'override',
      'live',
      'live',
      'live',
    ]);
    // Step 5 is the model asking to refund the forked amount: the refund that was not made.
    expect((await desk.engine.getRun(fork.runId)).steps[4]!.response).toMatchObject({
      content: [{ type: 'text' }, { type: 'tool_use', name: 'refund', input: { order_id: 'ORD-1', amount: 80 } }],
    });
    expect((await desk.engine.store.readSteps(fork.runId)).map((row) => row.step)).toEqual([2, 3, 4, 5]);
    // The read-only lookup went live; the refund did not.
    expect(desk.calls).toEqual({
      model: 4 + 2,
      lookup_order: 1,
      lookup_customer: 1 + 1,
      refund: 1,
      notify_customer: 0,
    });
  });

  it('a re-execution stops at the refund', async () => {
    const desk = await recordedDesk();
    const run = await desk.engine.reexecute({ sourceRunId: PARENT, agent: baseline, world: desk.world });
    expect(run).toMatchObject({
      mode: 'reexecution',
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      sideEffects: REFUSE,
    });
    expect(run.error!.message).toMatch(/a re-execution calls side-effecting tools only when asked by name/);
    expect(provenances(run)).toEqual(Array(5).fill('live'));
    expect(desk.calls).toEqual({
      model: 4 + 3,
      lookup_order: 1 + 1,
      lookup_customer: 1 + 1,
      refund: 1,
      notify_customer: 0,
    });
  });

  it('a fidelity replay of another prompt goes live at step 1 and stops at the refund', async () => {
    const desk = await recordedDesk();
    const replay = await desk.engine.replay({
      agent: terse,
      cassette: await desk.engine.cassette(PARENT),
      mode: 'fidelity',
      onMiss: 'live',
      world: desk.world,
    });
    expect(replay).toMatchObject({
      mode: 'replay:fidelity',
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      sideEffects: REFUSE,
    });
    expect(replay.error!.message).toMatch(
      /a fidelity replay going live calls side-effecting tools only when asked by name/,
    );
    expect(replay.findings[0]).toMatchObject({ step: 1, kind: 'model', index: 0, classification: 'changed' });
    expect(provenances(replay)).toEqual(Array(5).fill('live'));
    expect(desk.calls.refund).toBe(1);
    expect(desk.calls.lookup_order).toBe(2);
  });

  it('a fidelity replay that stays on its recording serves the refund from the cassette even when live is allowed', async () => {
    const desk = await recordedDesk();
    const replay = await desk.engine.replay({
      agent: baseline,
      cassette: await desk.engine.cassette(PARENT),
      mode: 'fidelity',
      onMiss: 'live',
      world: desk.world,
      sideEffects: 'live',
    });
    expect(replay).toMatchObject({
      status: 'completed',
      outcome: { refunded: 120, refund_id: 'RF-ORD-1-1' },
      sideEffects: { default: 'live', tools: {} },
    });
    expect(provenances(replay)).toEqual(Array(7).fill('recorded'));
    expect(sideEffects(replay)).toEqual(Array(7).fill(false));
    expect(desk.calls).toEqual({ model: 4, lookup_order: 1, lookup_customer: 1, refund: 1, notify_customer: 0 });
  });

  it('a strict replay has no firewall to apply: it never reaches the world', async () => {
    const desk = await recordedDesk();
    const replay = await desk.engine.replay({
      agent: baseline,
      cassette: await desk.engine.cassette(PARENT),
      mode: 'strict',
    });
    expect(replay).toMatchObject({
      mode: 'replay:strict',
      status: 'completed',
      outcome: { refunded: 120 },
      sideEffects: null,
    });
    expect(provenances(replay)).toEqual(Array(7).fill('recorded'));
    expect(desk.calls).toEqual({ model: 4, lookup_order: 1, lookup_customer: 1, refund: 1, notify_customer: 0 });
  });

  it('verify in re-execution mode gives the verdict blocked', async () => {
    const desk = await recordedDesk();
    const before = (await desk.engine.listRuns()).length;
    const result = await verifyRun(desk.engine, {
      runId: PARENT,
      candidate: terse,
      baseline,
      mode: 'reexecution',
      world: () => desk.world,
    });
    expect(result.verdict).toBe('blocked');
    expect(result.reason).toMatch(/stopped by the side-effect firewall .*refund#0 \(step 6\) was not called/);
    expect(result.candidate.outcomes).toEqual({ 'failed: SIDE_EFFECT_BLOCKED': 1 });
    expect(result.control.outcomes).toEqual({ 'failed: SIDE_EFFECT_BLOCKED': 1 });
    expect((await desk.engine.listRuns()).length).toBe(before + 2);
    expect(desk.calls.refund).toBe(1);
  });

  it('a divergence report counts the stopped re-execution as blocked', async () => {
    const desk = await recordedDesk();
    const report = await divergenceReport(desk.engine, {
      runIds: [PARENT],
      plan: () => ({ agent: baseline, world: () => desk.world }),
    });
    const sources = report.rows
      .filter((row) => row.count > 0)
      .map((row) => [row.source, row.count, row.entries.map((entry) => entry.step)]);
    expect(sources).toEqual([['blocked', 1, [6]]]);
    expect(report.rows.find((row) => row.source === 'blocked')!.entries[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/firewall stopped it at step 6/),
    });
    expect(desk.calls.refund).toBe(1);
  });

  it('resuming the blocked fork without a policy is blocked again, and still refunds nothing', async () => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk);
    const resumed = await desk.engine.resume({ runId: fork.runId, agent: baseline, world: desk.world });
    expect(resumed).toMatchObject({
      runId: fork.runId,
      mode: 'fork',
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      sideEffects: REFUSE,
    });
    expect(resumed.error!.message).toMatch(/a resumed run calls side-effecting tools only when asked by name/);
    expect(resumed.resumed).toMatchObject({
      attempt: 2,
      fromStep: 6,
      after: 'SIDE_EFFECT_BLOCKED',
      sideEffects: REFUSE,
    });
    expect(resumed.steps).toHaveLength(5);
    expect((await desk.engine.getRun(fork.runId)).resumes).toHaveLength(1);
    expect(desk.calls.refund).toBe(1);
  });

  it('a drift probe asks the lookups again and never the refund', async () => {
    const desk = await recordedDesk();
    const report = await probeDrift(desk.engine, {
      runId: PARENT,
      tools: baseline.tools,
      world: desk.world,
    });
    expect(report.steps.map((step) => `${step.kind}:${step.status}`)).toEqual([
      'lookup_order:unchanged',
      'lookup_customer:unchanged',
      'refund:skipped',
    ]);
    expect(desk.calls).toEqual({ model: 4, lookup_order: 2, lookup_customer: 2, refund: 1, notify_customer: 0 });
  });
});

describe('simulate: the tool’s simulator answers, nothing is refunded', () => {
  it.each([
    ['for every tool', 'simulate' as const, { default: 'simulate', tools: {} }],
    ['by name', { tools: { refund: 'simulate' } } as const, { default: 'refuse', tools: { refund: 'simulate' } }],
  ])('a fork that simulates %s completes on the simulated refund', async (_label, option, stored) => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk, { sideEffects: option });
    expect(fork).toMatchObject({
      status: 'completed',
      error: null,
      outcome: { refunded: 80, refund_id: 'SIM-ORD-1-0' },
      sideEffects: stored,
    });
    expect(provenances(await desk.engine.getRun(fork.runId))).toEqual([
      'inherited',
      'override',
      'live',
      'live',
      'live',
      'simulated',
      'live',
    ]);
    expect(sideEffects(await desk.engine.getRun(fork.runId))).toEqual(Array(7).fill(false));
    expect((await desk.engine.getRun(fork.runId)).steps[5]!.response).toEqual({
      output: { refund_id: 'SIM-ORD-1-0', amount: 80, simulated: true },
      isError: false,
    });
    expect((await desk.engine.getRun(fork.runId)).steps[5]).toMatchObject({
      provenance: 'simulated',
      sideEffect: false,
    });
    expect((await desk.engine.getRunSummary(fork.runId)).sideEffects).toEqual(stored);
    expect(desk.calls.refund).toBe(1);
  });

  it('a re-execution and a fidelity replay going live complete on the simulated refund', async () => {
    const desk = await recordedDesk();
    const run = await desk.engine.reexecute({
      sourceRunId: PARENT,
      agent: baseline,
      world: desk.world,
      sideEffects: 'simulate',
    });
    expect(run).toMatchObject({ status: 'completed', outcome: { refunded: 120, refund_id: 'SIM-ORD-1-0' } });
    expect(run.steps[5]!.provenance).toBe('simulated');
    const replay = await desk.engine.replay({
      agent: terse,
      cassette: await desk.engine.cassette(PARENT),
      mode: 'fidelity',
      onMiss: 'live',
      world: desk.world,
      sideEffects: { tools: { refund: 'simulate' } },
    });
    expect(replay).toMatchObject({
      status: 'completed',
      outcome: { refunded: 120, refund_id: 'SIM-ORD-1-0' },
      sideEffects: { default: 'refuse', tools: { refund: 'simulate' } },
    });
    expect(replay.steps[5]!.provenance).toBe('simulated');
    expect(desk.calls.refund).toBe(1);
  });

  it('a divergence report calls the simulated refund simulated', async () => {
    const desk = await recordedDesk();
    const report = await divergenceReport(desk.engine, {
      runIds: [PARENT],
      plan: () => ({ agent: baseline, world: () => desk.world }),
      sideEffects: 'simulate',
    });
    const sources = report.rows
      .filter((row) => row.count > 0)
      .map((row) => [row.source, row.count, row.entries.map((entry) => entry.step)]);
    expect(sources).toEqual([['simulated', 1, [6]]]);
    expect(desk.calls.refund).toBe(1);
  });

  it('a build whose refund has no simulator is blocked, saying so', async () => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk, { build: 'no-simulator', sideEffects: 'simulate' });
    expect(fork).toMatchObject({ status: 'failed', error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 } });
    expect(fork.error!.message).toMatch(/refund is not read-only and its spec has no simulator to answer in its place/);
    expect((await desk.engine.getRun(fork.runId)).steps).toHaveLength(5);
    expect(desk.calls.refund).toBe(1);
  });
});

describe('live: the real tool is called, and the step says so', () => {
  it.each([
    ['for every tool', 'live' as const, { default: 'live', tools: {} }],
    ['by name', { tools: { refund: 'live' } } as const, { default: 'refuse', tools: { refund: 'live' } }],
    [
      'by name over a simulating default',
      { default: 'simulate', tools: { refund: 'live' } } as const,
      { default: 'simulate', tools: { refund: 'live' } },
    ],
  ])('a fork that lets refunds through %s refunds once more and marks the step', async (_label, option, stored) => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk, { sideEffects: option });
    expect(fork).toMatchObject({
      status: 'completed',
      outcome: { refunded: 80, refund_id: 'RF-ORD-1-2' },
      sideEffects: stored,
    });
    expect(provenances(await desk.engine.getRun(fork.runId))).toEqual([
      'inherited',
      'override',
      'live',
      'live',
      'live',
      'live',
      'live',
    ]);
    expect(sideEffects(await desk.engine.getRun(fork.runId))).toEqual([false, false, false, false, false, true, false]);
    expect((await desk.engine.getRun(fork.runId)).steps[5]).toMatchObject({
      kind: 'refund',
      provenance: 'live',
      sideEffect: true,
    });
    expect((await desk.engine.getRunSummary(fork.runId)).sideEffects).toEqual(stored);
    const child = (await desk.engine.lineage(PARENT)).tree.children.find((node) => node.run.runId === fork.runId);
    expect(child?.liveSideEffects).toEqual(['refund#0 (step 6)']);
    expect(desk.calls.refund).toBe(2);
  });

  it('a tool named for simulation wins over a live default', async () => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk, { sideEffects: { default: 'live', tools: { refund: 'simulate' } } });
    expect(fork).toMatchObject({ status: 'completed', outcome: { refunded: 80, refund_id: 'SIM-ORD-1-0' } });
    expect((await desk.engine.getRun(fork.runId)).steps[5]).toMatchObject({
      provenance: 'simulated',
      sideEffect: false,
    });
    expect(desk.calls.refund).toBe(1);
  });

  it('a re-execution, a fidelity replay going live and a verification refund once per run, marked', async () => {
    const desk = await recordedDesk();
    const run = await desk.engine.reexecute({
      sourceRunId: PARENT,
      agent: baseline,
      world: desk.world,
      sideEffects: 'live',
    });
    expect(run).toMatchObject({ status: 'completed', outcome: { refunded: 120, refund_id: 'RF-ORD-1-2' } });
    expect(sideEffects(run)).toEqual([false, false, false, false, false, true, false]);
    expect(desk.calls.refund).toBe(2);
    const replay = await desk.engine.replay({
      agent: terse,
      cassette: await desk.engine.cassette(PARENT),
      mode: 'fidelity',
      onMiss: 'live',
      world: desk.world,
      sideEffects: { tools: { refund: 'live' } },
    });
    expect(replay).toMatchObject({ status: 'completed', outcome: { refund_id: 'RF-ORD-1-3' } });
    expect(replay.steps[5]).toMatchObject({ provenance: 'live', sideEffect: true });
    expect(desk.calls.refund).toBe(3);
    const verdict = await verifyRun(desk.engine, {
      runId: PARENT,
      candidate: terse,
      baseline,
      mode: 'reexecution',
      world: () => desk.world,
      sideEffects: 'live',
    });
    expect(verdict.verdict).toBe('not-reproducible');
    expect(desk.calls.refund).toBe(5);
  });

  it('a record run never marks its refund, the fork that fires one does, and lineage lists only the fork', async () => {
    const desk = await recordedDesk();
    const refused = await forkOf(desk);
    const fired = await forkOf(desk, { sideEffects: 'live' });
    const lineage = await desk.engine.lineage(PARENT);
    expect(lineage.tree.liveSideEffects).toEqual([]);
    const fx = Object.fromEntries(lineage.tree.children.map((node) => [node.run.runId, node.liveSideEffects]));
    expect(fx).toEqual({ [refused.runId]: [], [fired.runId]: ['refund#0 (step 6)'] });
  });
});

describe('resume of a blocked fork', () => {
  it('with refund simulated by name completes in the same run, attempt 2 on the resumed steps', async () => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk);
    const resumed = await desk.engine.resume({
      runId: fork.runId,
      agent: baseline,
      world: desk.world,
      sideEffects: { tools: { refund: 'simulate' } },
    });
    const policy = { default: 'refuse', tools: { refund: 'simulate' } };
    // The run keeps the policy its first attempt ran under; the resume records its own.
    const first = { default: 'refuse', tools: {} };
    expect(resumed).toMatchObject({
      runId: fork.runId,
      mode: 'fork',
      status: 'completed',
      error: null,
      outcome: { refunded: 80, refund_id: 'SIM-ORD-1-0' },
      sideEffects: first,
    });
    expect(resumed.resumed).toMatchObject({
      attempt: 2,
      fromStep: 6,
      after: 'SIDE_EFFECT_BLOCKED',
      sideEffects: policy,
    });
    expect(resumed.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 1, 2, 2]);
    expect(provenances(resumed)).toEqual(['inherited', 'override', 'live', 'live', 'live', 'simulated', 'live']);
    const stored = await desk.engine.getRun(fork.runId);
    expect(stored).toMatchObject({ status: 'completed', sideEffects: first, resumes: [{ sideEffects: policy }] });
    expect(stored.resumes).toHaveLength(1);
    expect((await desk.engine.listRuns()).map((run) => run.runId)).toEqual([PARENT, fork.runId]);
    expect(desk.calls.refund).toBe(1);
  });

  it('blocked again, then resumed live: attempt 3 refunds once, marked', async () => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk);
    await desk.engine.resume({ runId: fork.runId, agent: baseline, world: desk.world });
    const resumed = await desk.engine.resume({
      runId: fork.runId,
      agent: baseline,
      world: desk.world,
      sideEffects: { tools: { refund: 'live' } },
    });
    expect(resumed).toMatchObject({ status: 'completed', outcome: { refunded: 80, refund_id: 'RF-ORD-1-2' } });
    expect(resumed.resumed).toMatchObject({ attempt: 3, fromStep: 6 });
    expect(resumed.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 1, 3, 3]);
    expect(resumed.steps[5]).toMatchObject({ kind: 'refund', provenance: 'live', sideEffect: true });
    expect(desk.calls.refund).toBe(2);
  });
});

describe('a live side effect stays on the record after a resume', () => {
  /** The desk's world, but its provider fails once (a 503) when it is asked to write the outcome after the refund. */
  const failingOnceAfterRefund = (inner: World): World => {
    let failed = false;
    return {
      ...inner,
      model: {
        async respond(request) {
          const refunded = request.messages.some((message) =>
            message.content.some(
              (part) => part.type === 'tool_result' && JSON.stringify(part.content).includes('refund_id'),
            ),
          );
          if (refunded && !failed) {
            failed = true;
            throw new Error('503 Service Unavailable');
          }
          return inner.model.respond(request);
        },
      },
    };
  };

  it('a fork that refunded live, stopped by the provider and resumed under the default firewall, still shows its refund in the tree', async () => {
    const desk = await recordedDesk();
    const world = failingOnceAfterRefund(desk.world);
    const fork = await desk.engine.fork({
      parentRunId: PARENT,
      atStep: 2,
      override: CHEAPER,
      agent: baseline,
      world,
      sideEffects: { tools: { refund: 'live' } },
    });
    const forkRun = await desk.engine.getRun(fork.runId);
    expect(fork).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_FAILED', step: 7 } });
    expect(forkRun.steps[5]).toMatchObject({ kind: 'refund', sideEffect: true });
    expect(desk.calls.refund).toBe(2);
    const before = (await desk.engine.lineage(PARENT)).tree.children.find((node) => node.run.runId === fork.runId);
    expect(before?.liveSideEffects).toEqual(['refund#0 (step 6)']);
    // The rest of the run needs no side effect: resumed under the default firewall, it completes.
    const resumed = await desk.engine.resume({ runId: fork.runId, agent: baseline, world });
    expect(resumed).toMatchObject({ status: 'completed', outcome: { refunded: 80, refund_id: 'RF-ORD-1-2' } });
    expect(resumed.steps[5]).toMatchObject({ kind: 'refund', attempt: 1, sideEffect: true });
    expect(desk.calls.refund).toBe(2);
    // The refund attempt 1 made is still a fact of the run: the tree must keep listing it.
    const after = (await desk.engine.lineage(PARENT)).tree.children.find((node) => node.run.runId === fork.runId);
    expect(after?.liveSideEffects).toEqual(['refund#0 (step 6)']);
  });
});

describe('a side-effect policy is checked before anything is written', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['an unknown choice', 'yolo', /sideEffects must be one of refuse, simulate, live, got "yolo"/],
    [
      'an unknown choice for a tool',
      { tools: { refund: 'maybe' } },
      /sideEffects\.tools\.refund must be one of refuse, simulate, live, got "maybe"/,
    ],
    ['an unknown default', { default: 'sometimes' }, /sideEffects\.default must be one of/],
    ['a read-only tool', { tools: { lookup_order: 'live' } }, /names tool "lookup_order", which is read-only/],
    [
      'a tool the build does not declare',
      { tools: { notify_customer: 'simulate' } },
      /names tool "notify_customer", which the build does not declare; its side-effecting tools are refund/,
    ],
    ['a stray field', { default: 'simulate', tool: { refund: 'live' } }, /sideEffects has no field "tool"/],
    ['a list', ['live'], /sideEffects must be one of/],
    ['null', null, /sideEffects must be one of/],
    ['tools as a list', { tools: ['refund'] }, /sideEffects\.tools must be an object/],
  ];
  const modes: Array<[string, (desk: Desk, option: SideEffectOption) => Promise<unknown>]> = [
    ['fork', (desk, option) => forkOf(desk, { sideEffects: option })],
    [
      'reexecute',
      (desk, option) =>
        desk.engine.reexecute({
          sourceRunId: PARENT,
          agent: baseline,
          world: desk.world,
          sideEffects: option,
        }),
    ],
    [
      'replay',
      async (desk, option) =>
        desk.engine.replay({
          agent: terse,
          cassette: await desk.engine.cassette(PARENT),
          mode: 'fidelity',
          onMiss: 'live',
          world: desk.world,
          sideEffects: option,
        }),
    ],
    [
      'verify',
      (desk, option) =>
        verifyRun(desk.engine, {
          runId: PARENT,
          candidate: terse,
          baseline,
          mode: 'reexecution',
          world: () => desk.world,
          sideEffects: option,
        }),
    ],
    [
      'divergenceReport',
      (desk, option) =>
        divergenceReport(desk.engine, {
          runIds: [PARENT],
          plan: () => ({ agent: baseline, world: () => desk.world }),
          sideEffects: option,
        }),
    ],
  ];

  it.each(
    modes.flatMap(([mode, work]) =>
      bad.map(([label, option, message]) => [mode, label, work, option, message] as const),
    ),
  )('%s refuses %s with USAGE, writing no run and calling nothing', async (_mode, _label, work, option, message) => {
    const desk = await recordedDesk();
    const runs = (await desk.engine.listRuns()).length;
    const calls = { ...desk.calls };
    const error = await codeOf(() => work(desk, option as SideEffectOption));
    expect(error?.code).toBe('USAGE');
    expect(error?.message).toMatch(message);
    expect((await desk.engine.listRuns()).length).toBe(runs);
    expect(desk.calls).toEqual(calls);
  });

  it.each(bad)('resume refuses %s with USAGE, leaving the blocked run as it was', async (_label, option, message) => {
    const desk = await recordedDesk();
    const fork = await forkOf(desk);
    const runs = (await desk.engine.listRuns()).length;
    const before = await desk.engine.getRun(fork.runId);
    const calls = { ...desk.calls };
    const error = await codeOf(() =>
      desk.engine.resume({
        runId: fork.runId,
        agent: baseline,
        world: desk.world,
        sideEffects: option as SideEffectOption,
      }),
    );
    expect(error?.code).toBe('USAGE');
    expect(error?.message).toMatch(message);
    expect((await desk.engine.listRuns()).length).toBe(runs);
    expect(await desk.engine.getRun(fork.runId)).toEqual(before);
    expect(desk.calls).toEqual(calls);
  });

  it('verify checks the policy against both builds before either arm runs', async () => {
    const desk = await recordedDesk();
    const runs = (await desk.engine.listRuns()).length;
    // The candidate's refund is side-effecting; the control arm's build declares no refund at all.
    const lookupsOnly = refundBuild('baseline', {
      build: 'lookups-only',
      tools: baseline.tools.filter((tool) => tool.readOnly),
    });
    const error = await codeOf(() =>
      verifyRun(desk.engine, {
        runId: PARENT,
        candidate: baseline,
        baseline: lookupsOnly,
        mode: 'reexecution',
        world: () => desk.world,
        sideEffects: { tools: { refund: 'simulate' } },
      }),
    );
    expect(error).toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(
        /names tool "refund", which the build does not declare; its side-effecting tools are none/,
      ),
    });
    expect((await desk.engine.listRuns()).length).toBe(runs);
  });
});

describe('a tool the build does not declare is side-effecting', () => {
  it('the record calls it (the original run), a fork is blocked at it even when simulating or letting refunds through', async () => {
    const desk = await recordedDesk({ notify: true });
    expect(desk.recording.steps.map((step) => step.kind)).toEqual([
      'model',
      'lookup_order',
      'model',
      'lookup_customer',
      'model',
      'notify_customer',
      'model',
      'refund',
      'model',
    ]);
    expect(desk.calls).toMatchObject({ notify_customer: 1, refund: 1 });
    for (const option of ['simulate', { tools: { refund: 'live' } }] as const) {
      const fork = await forkOf(desk, { sideEffects: option });
      expect(fork).toMatchObject({ status: 'failed', error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 } });
      expect(fork.error!.message).toMatch(
        /^notify_customer#0 \(step 6\) was not called: notify_customer is not a tool the build declares/,
      );
      expect((await desk.engine.getRun(fork.runId)).steps).toHaveLength(5);
    }
    expect(desk.calls).toMatchObject({ notify_customer: 1, refund: 1 });
  });

  it('a live default lets it through, marked as a side effect', async () => {
    const desk = await recordedDesk({ notify: true });
    const fork = await forkOf(desk, { sideEffects: 'live' });
    expect(fork).toMatchObject({ status: 'completed', outcome: { refunded: 80 } });
    expect(
      (await desk.engine.getRun(fork.runId)).steps
        .filter((step) => step.sideEffect)
        .map((step) => `${step.kind}#${step.index}@${step.step}`),
    ).toEqual(['notify_customer#0@6', 'refund#0@8']);
    expect(desk.calls).toMatchObject({ notify_customer: 2, refund: 2 });
  });
});

describe('a simulator at fault is the agent’s own code: AGENT_CODE_FAILED', () => {
  it.each([
    [
      'throws',
      'simulator-throws' as const,
      /the simulator of refund threw at refund#0 \(step 6\): the sandbox bank is down/,
    ],
    [
      'returns a Date',
      'simulator-date' as const,
      /the simulated output of refund#0 \(step 6\) is not plain JSON at .*at/,
    ],
  ])(
    'a simulator that %s fails the fork at its step, refunds nothing, and cannot be resumed',
    async (_label, build, message) => {
      const desk = await recordedDesk();
      const fork = await forkOf(desk, { build, sideEffects: { tools: { refund: 'simulate' } } });
      expect(fork).toMatchObject({ status: 'failed', error: { code: 'AGENT_CODE_FAILED', step: 6 } });
      expect(fork.error!.message).toMatch(message);
      expect((await desk.engine.getRun(fork.runId)).steps).toHaveLength(5);
      expect(desk.calls.refund).toBe(1);
      const refused = await codeOf(() =>
        desk.engine.resume({
          runId: fork.runId,
          agent: refundBuild(build),
          world: desk.world,
          sideEffects: 'simulate',
        }),
      );
      expect(refused?.code).toBe('RESUME_REFUSED');
      expect(desk.calls.refund).toBe(1);
    },
  );

  it('a re-execution with a throwing simulator fails the same way', async () => {
    const desk = await recordedDesk();
    const run = await desk.engine.reexecute({
      sourceRunId: PARENT,
      agent: refundBuild('simulator-throws'),
      world: desk.world,
      sideEffects: 'simulate',
    });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'AGENT_CODE_FAILED', step: 6 } });
    expect(desk.calls.refund).toBe(1);
  });
});
