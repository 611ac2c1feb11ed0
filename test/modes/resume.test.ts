import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../src/driver/index.js';
import type { RunView } from '../../src/read/index.js';
import type { Store } from '../../src/store/index.js';
import type { World } from '../../src/world/index.js';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { observationOf } from '../../src/analysis/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, worldAt } from '../support/incident.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import { rejectionCode } from '../support/thrown.js';

const SEED = 20260304;
const INCIDENT = {
  agent: build('baseline'),
  input: { claimId: 'CLM-91077' },
  scenario: 'scenarios/claims-triage',
};
const liveEstimates = { tools: { estimate_repair: 'live' } } as const;

/** The claims world whose provider fails its `failing`-th call with a dropped connection. */
const droppingWorld = (failing: number): World => {
  const world = worldAt('2026-03-04', SEED);
  let calls = 0;
  return {
    ...world,
    model: {
      respond: (request) =>
        ++calls === failing
          ? Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
          : world.model.respond(request),
    },
  };
};

const engineOn = (store: Store, options: Partial<EngineOptions> = {}) => createEngine({ store, ...options });

/** What a run observed, step by step: the request hashes and the observations, whichever process made them. */
const observed = (run: RunView) =>
  run.steps.map((step) => ({
    call: `${step.kind}#${step.index}`,
    hash: step.requestHash,
    seen: observationOf(step.response),
  }));

describe('engine.resume', () => {
  it('continues a run the provider stopped, in the same run id, to the outcome an uninterrupted run with the same seed reaches', async () => {
    const engine = engineOn(sqliteStore({ path: ':memory:' }));
    const stopped = await engine.record({ ...INCIDENT, world: droppingWorld(3), runId: 'dead0001' });
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_FAILED', step: 5 } });
    expect(stopped.steps).toHaveLength(4);

    const resumed = await engine.resume({
      runId: 'dead0001',
      agent: build('baseline'),
      world: worldAt('2026-03-04', SEED),
      sideEffects: liveEstimates,
    });
    const whole = await engine.record({ ...INCIDENT, world: worldAt('2026-03-04', SEED), runId: 'a11e0001' });
    expect(resumed).toMatchObject({
      mode: 'record',
      runId: 'dead0001',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', step: 9 },
    });
    expect(resumed.error).toEqual(whole.error);
    expect(observed(resumed)).toEqual(observed(whole));
    expect(resumed.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 2]);
    expect(resumed.resumed).toEqual({
      attempt: 2,
      fromStep: 5,
      at: expect.any(String),
      after: 'PROVIDER_FAILED',
      sideEffects: { default: 'refuse', tools: { estimate_repair: 'live' } },
    });
    // A recording is the original run: only its resume ran behind the firewall.
    expect(await engine.getRun('dead0001')).toMatchObject({ resumes: [resumed.resumed], sideEffects: null });
    // The record run allowed its one side effect by name, and it is marked; every other step only read.
    expect(resumed.steps.filter((step) => step.sideEffect).map((step) => step.step)).toEqual([6]);
    // Every checkpoint of the resumed run restores, and equals the uninterrupted run's.
    for (let step = 0; step <= 9; step++) {
      const a = await restoreCheckpoint(engine.store, 'dead0001', step);
      const b = await restoreCheckpoint(engine.store, 'a11e0001', step);
      expect(a.context.step).toBe(step);
      expect(a.messageDigests).toEqual(b.messageDigests);
    }
  });

  it('stops again at the firewall when the rest of the run meets a side effect it was not allowed, and resumes a third attempt', async () => {
    const engine = engineOn(sqliteStore({ path: ':memory:' }));
    await engine.record({ ...INCIDENT, world: droppingWorld(3), runId: 'dead0002' });
    const blocked = await engine.resume({
      runId: 'dead0002',
      agent: build('baseline'),
      world: worldAt('2026-03-04', SEED),
    });
    expect(blocked).toMatchObject({ status: 'failed', error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 } });
    expect(blocked.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 2]);
    const done = await engine.resume({
      runId: 'dead0002',
      agent: build('baseline'),
      world: worldAt('2026-03-04', SEED),
      sideEffects: { tools: { estimate_repair: 'simulate' } },
    });
    expect(done.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 2, 3, 3, 3, 3]);
    expect(done.steps[5]).toMatchObject({ kind: 'estimate_repair', provenance: 'simulated' });
    expect(done.resumes.map((resume) => [resume.attempt, resume.fromStep, resume.after])).toEqual([
      [2, 5, 'PROVIDER_FAILED'],
      [3, 6, 'SIDE_EFFECT_BLOCKED'],
    ]);
  });

  it('refuses what it must not resume, with RESUME_REFUSED or AGENT_MISMATCH, and changes nothing', async () => {
    const engine = engineOn(sqliteStore({ path: ':memory:' }));
    const incident = await engine.record({ ...INCIDENT, world: worldAt('2026-03-04', SEED), runId: '9b40c1d5' });
    const completed = await engine.record({
      ...INCIDENT,
      input: { claimId: 'CLM-91002' },
      world: worldAt('2026-03-04', SEED),
      runId: 'c0ffee01',
    });
    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette('9b40c1d5'),
      mode: 'strict',
    });
    await engine.record({ ...INCIDENT, world: droppingWorld(2), runId: 'dead0003' });
    const before = await engine.listRuns();
    const refusal = async (runId: string, agent = build('baseline'), world = worldAt('2026-03-04', SEED)) => {
      try {
        await engine.resume({ runId, agent, world });
      } catch (error) {
        return isForkpointError(error) ? `${error.code}: ${error.message}` : String(error);
      }
      return 'resumed';
    };
    expect(incident.error?.code).toBe('VALIDATION_FAILED');
    expect(await refusal('9b40c1d5')).toMatch(
      /^RESUME_REFUSED: .*failed in the agent's own code \(VALIDATION_FAILED at step 9\)/,
    );
    expect(completed.status).toBe('completed');
    expect(await refusal('c0ffee01')).toMatch(/^RESUME_REFUSED: .*it completed/);
    expect(await refusal(replay.runId)).toMatch(/^RESUME_REFUSED: .*replay:strict run, written whole/);
    expect(await refusal('dead0003', build('patched'))).toMatch(
      /^RESUME_REFUSED: .*ran build baseline .*build patched .* would continue it with other code/,
    );
    expect(await refusal('dead0003', testAgent())).toMatch(/^AGENT_MISMATCH: /);
    // One run meets one world: a world that states another day or seed would make the run's record untrue.
    expect(await refusal('dead0003', build('baseline'), worldAt('2026-03-09', SEED))).toMatch(
      /^RESUME_REFUSED: .*met the world of 2026-03-04 with seed 20260304; this world has date 2026-03-09/,
    );
    expect(await refusal('dead0003', build('baseline'), worldAt('2026-03-04', 1))).toMatch(
      /^RESUME_REFUSED: .*this world has seed 1\./,
    );
    expect(await refusal('ffff0000')).toMatch(/^RUN_NOT_FOUND: /);
    expect(await engine.listRuns()).toEqual(before);
  });

  it("takes over an interrupted run once its owner's lease lapses, and fences the old owner out of it", async () => {
    const store = sqliteStore({ path: ':memory:' });
    let now = 1_000_000;
    const leaseClock = () => now;
    // The first owner's provider hangs at its third call: the process is "stuck", its lease not renewed.
    let release: (() => void) | undefined;
    const stuck = ((): World => {
      const world = worldAt('2026-03-04', SEED);
      let calls = 0;
      return {
        ...world,
        model: {
          respond: async (request) => {
            if (++calls === 3) await new Promise<void>((resolve) => (release = resolve));
            return world.model.respond(request);
          },
        },
      };
    })();
    const first = engineOn(store, { leaseClock, leaseMs: 30_000 });
    const recording = first.record({ ...INCIDENT, world: stuck, runId: 'dead0004' });
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = engineOn(store, { leaseClock, leaseMs: 30_000 });
    expect((await second.getRunSummary('dead0004')).status).toBe('running');
    expect(
      await rejectionCode(() =>
        second.resume({ runId: 'dead0004', agent: build('baseline'), world: worldAt('2026-03-04', SEED) }),
      ),
    ).toBe('RESUME_REFUSED');

    now += 30_001;
    expect((await second.getRunSummary('dead0004')).status).toBe('interrupted');
    const resumed = await second.resume({
      runId: 'dead0004',
      agent: build('baseline'),
      world: worldAt('2026-03-04', SEED),
      sideEffects: liveEstimates,
    });
    expect(resumed).toMatchObject({
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', step: 9 },
      resumed: { fromStep: 5, after: 'interrupted' },
    });

    // The old owner wakes up: its next write names a token that no longer owns the run.
    release();
    expect(await rejectionCode(() => recording)).toBe('LEASE_LOST');
    expect(await second.getRunSummary('dead0004')).toMatchObject({
      status: 'failed',
      error: { code: 'VALIDATION_FAILED' },
      stepCount: 9,
    });
    expect((await second.getRun('dead0004')).steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 2]);
  });

  it('resumes a long run across its conversation segments: every checkpoint restores as a replay of it does', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const engine = engineOn(store);
    const agent = testAgent({ stepCap: 100 });
    const dropping: World = syntheticWorld({ toolCalls: 30 });
    let calls = 0;
    const failing: World = {
      ...dropping,
      model: {
        respond: (request) =>
          ++calls === 11 ? Promise.reject(new Error('503 overloaded')) : dropping.model.respond(request),
      },
    };
    const stopped = await engine.record({ agent, world: failing, input: { n: 1 }, runId: 'dead0005' });
    // Past the full checkpoint and conversation segment of step 16, with messages after it.
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_FAILED', step: 21 } });
    const resumed = await engine.resume({ runId: 'dead0005', agent, world: syntheticWorld({ toolCalls: 30 }) });
    expect(resumed.status).toBe('completed');
    expect(resumed.steps).toHaveLength(61);
    expect((await store.readSteps('dead0005')).some((row) => row.step > 21 && row.messageSegment !== null)).toBe(true);
    const replay = await engine.replay({ agent, cassette: await engine.cassette('dead0005'), mode: 'strict' });
    expect(replay.status).toBe('completed');
    for (let step = 0; step <= 61; step++) {
      expect(await restoreCheckpoint(store, 'dead0005', step), `checkpoint ${step}`).toEqual(
        await restoreCheckpoint(store, replay.runId, step),
      );
    }
  });

  it('resumes a fork that stopped before its own step was written, with the change it recorded', async () => {
    const inner = sqliteStore({ path: ':memory:' });
    const engine = engineOn(inner);
    await engine.record({
      agent: testAgent(),
      world: syntheticWorld({ toolCalls: 2 }),
      input: { n: 1 },
      runId: 'aaaa0001',
    });
    let failNext = true;
    const breaking: Store = {
      ...inner,
      commitStep: async (...args) => {
        if (failNext) {
          failNext = false;
          throw new Error('the disk went away');
        }
        await inner.commitStep(...args);
      },
    };
    const forking = engineOn(breaking);
    const change = { kind: 'tool-result', output: { echoed: 'changed' } } as const;
    expect(
      await rejectionCode(() =>
        forking.fork({
          parentRunId: 'aaaa0001',
          atStep: 2,
          override: change,
          agent: testAgent(),
          world: syntheticWorld({ toolCalls: 2 }),
          runId: 'f0f00001',
        }),
      ),
    ).toBe('INTERNAL');
    expect(await engine.getRun('f0f00001')).toMatchObject({
      status: 'failed',
      error: { code: 'INTERNAL', step: 2 },
      steps: [{ step: 1, provenance: 'inherited' }],
    });
    const resumed = await engine.resume({
      runId: 'f0f00001',
      agent: testAgent(),
      world: syntheticWorld({ toolCalls: 2 }),
    });
    expect(resumed.status).toBe('completed');
    expect(resumed.steps.map((step) => [step.provenance, step.attempt])).toEqual([
      ['inherited', 1],
      ['override', 2],
      ['live', 2],
      ['live', 2],
      ['live', 2],
    ]);
    expect(resumed.steps[1]!.response).toEqual({ output: { echoed: 'changed' }, isError: false });
  });
});
