import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../src/driver/index.js';
import type { RecordOptions } from '../../src/modes/index.js';
import type { StepRecord, Store } from '../../src/store/index.js';
import type { World } from '../../src/world/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import scenario from '../../scenarios/claims-triage/index.js';
import { RunWriter } from '../../src/driver/run-writer.js';
import { streamingSink } from '../../src/driver/run-sink.js';
import { FROM_INPUT } from '../../src/driver/run-origin.js';
import { RequestHasher } from '../../src/cassette/index.js';
import { startSnapshot } from '../../src/engine/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import { rejectionCode } from '../support/thrown.js';

const fixed = (store: Store, overrides: Partial<EngineOptions> = {}) =>
  createEngine({
    store,
    clock: () => new Date('2026-03-04T10:00:00.000Z'),
    newRunId: () => 'aaaa0001',
    random: () => 0.25,
    ...overrides,
  });

const incident = (overrides: Partial<RecordOptions> = {}): RecordOptions => ({
  agent: scenario.builds.baseline!,
  world: scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }),
  input: { claimId: 'CLM-91077' },
  ...overrides,
});

/** A store that logs its writes, as `method:step` (`commitStep:9+finish` when a step ends the run). */
function loggingStore(): { store: Store; writes: string[] } {
  const inner = sqliteStore({ path: ':memory:' });
  const writes: string[] = [];
  const store: Store = {
    ...inner,
    createRun: async (run, start, blobs) => {
      writes.push('createRun');
      await inner.createRun(run, start, blobs);
    },
    commitStep: async (runId, owner, step, blobs, finish) => {
      writes.push(`commitStep:${step.step}${finish === undefined ? '' : `+finish:${finish.status}`}`);
      await inner.commitStep(runId, owner, step, blobs, finish);
    },
    finishRun: async (runId, owner, finish) => {
      writes.push(`finishRun:${finish.status}`);
      await inner.finishRun(runId, owner, finish);
    },
  };
  return { store, writes };
}

describe('engine.record', () => {
  it('ends a run in the commit of its last step: one write per step, and the run row is never behind its rows', async () => {
    const { store, writes } = loggingStore();
    const run = await fixed(store).record(incident());
    expect(run.status).toBe('failed');
    expect(writes).toEqual([
      'createRun',
      ...run.steps.slice(0, -1).map((step) => `commitStep:${step.step}`),
      `commitStep:${run.steps.length}+finish:failed`,
    ]);
    expect(await store.getRun(run.runId)).toMatchObject({
      status: 'failed',
      stepCount: run.steps.length,
      error: run.error,
    });
  });

  it('ends a run that stops before a final state (a provider refusing a request) with a write of its own', async () => {
    const { store, writes } = loggingStore();
    const build = { ...scenario.builds.baseline!, params: { maxTokens: 2048, temperature: 0 } };
    const run = await fixed(store).record(incident({ agent: build }));
    expect(run.error).toMatchObject({ code: 'PROVIDER_REJECTED' });
    expect(writes).toEqual(['createRun', 'finishRun:failed']);
  });

  it('records the incident as the run the chapter describes', async () => {
    const engine = fixed(sqliteStore({ path: ':memory:' }));
    const run = await engine.record(incident({ runId: '9b40c1d5' }));
    expect(run).toMatchObject({
      mode: 'record',
      runId: '9b40c1d5',
      status: 'failed',
      parent: null,
      worldAt: '2026-03-04',
    });
    expect(run.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 9 });
    expect(run.steps).toHaveLength(9);
    expect(run.steps.every((step) => step.provenance === 'live')).toBe(true);
    expect(run.steps[3]).toMatchObject({ step: 4, kind: 'ocr_document', index: 0 });
    expect(run.steps[3]!.response).toMatchObject({
      output: { fields: { damage_area_cm2: { value: 205, confidence: 0.38 } } },
      isError: false,
    });
    expect(await engine.getRun('9b40c1d5')).toEqual(run);
  });

  it("stores the model requests' head once, as one blob every model step of every run of the build refers to", async () => {
    const store = sqliteStore({ path: ':memory:' });
    const first = await fixed(store).record(incident({ runId: 'beef0001' }));
    await fixed(store).record(incident({ runId: 'beef0002' }));
    const rowsOf: Record<string, StepRecord[]> = {
      beef0001: await store.readSteps('beef0001'),
      beef0002: await store.readSteps('beef0002'),
    };
    const heads = ['beef0001', 'beef0002'].flatMap((runId) =>
      rowsOf[runId]!.filter((row) => row.kind === 'model').map((row) => row.request),
    );
    expect(heads.length).toBeGreaterThan(4);
    expect(new Set(heads).size).toBe(1);
    const digest = /^\{"\$blob":"([0-9a-f]{32})"\}$/.exec(heads[0]!)![1]!;
    const { messages: _messages, ...head } = first.steps[0]!.request as Record<string, unknown>;
    expect(JSON.parse((await store.readBlobs([digest])).get(digest)!)).toEqual(head);
  });

  it('takes its run id and timestamps from the injected ids and clock, its date and seed from what the world states', async () => {
    const engine = fixed(sqliteStore({ path: ':memory:' }));
    const run = await engine.record(
      incident({ world: scenario.openWorld({ at: '2026-03-05', seed: 42, latencyMs: 0 }) }),
    );
    expect(run.runId).toBe('aaaa0001');
    expect(run).toMatchObject({ worldAt: '2026-03-05', seed: 42 });
    expect(run.createdAt).toBe('2026-03-04T10:00:00.000Z');
    expect(run.finishedAt).toBe('2026-03-04T10:00:00.000Z');
  });

  it('repeats exactly with a pinned seed', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const engine = fixed(store);
    const first = await engine.record(
      incident({
        runId: 'aaaa0001',
        world: scenario.openWorld({ at: '2026-03-09', seed: 7, latencyMs: 0 }),
      }),
    );
    const second = await engine.record(
      incident({
        runId: 'aaaa0002',
        world: scenario.openWorld({ at: '2026-03-09', seed: 7, latencyMs: 0 }),
      }),
    );
    expect(second.steps.map((step) => step.requestHash)).toEqual(first.steps.map((step) => step.requestHash));
    expect(second.steps.map((step) => step.response)).toEqual(first.steps.map((step) => step.response));
    expect(second.outcome).toEqual(first.outcome);
  });

  it('refuses a run id that exists, with RUN_EXISTS, and leaves the database as it was', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const engine = fixed(store);
    await engine.record(incident({ runId: '9b40c1d5' }));
    const before = await store.readSteps('9b40c1d5');
    expect(
      await rejectionCode(() =>
        engine.record(
          incident({ runId: '9b40c1d5', world: scenario.openWorld({ at: '2026-03-09', seed: 1, latencyMs: 0 }) }),
        ),
      ),
    ).toBe('RUN_EXISTS');
    expect(await store.listRuns()).toHaveLength(1);
    expect(await store.readSteps('9b40c1d5')).toEqual(before);
  });

  it("stores no date and no seed for a world that states neither (a real provider's, today's)", async () => {
    const run = await fixed(sqliteStore({ path: ':memory:' })).record({
      agent: testAgent(),
      world: syntheticWorld({ toolCalls: 1 }),
      input: { n: 1 },
    });
    expect(run).toMatchObject({ status: 'completed', worldAt: null, seed: null });
  });

  it.each([
    ['a malformed run id', { runId: '9B40C1D5' }, 'USAGE'],
    [
      'a world of an impossible date',
      { world: scenario.openWorld({ at: '2026-13-01', seed: 1, latencyMs: 0 }) },
      'USAGE',
    ],
    [
      'a world of a negative seed',
      { world: { ...scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }), seed: -1 } },
      'USAGE',
    ],
    [
      'an input that is not plain JSON',
      { input: { claimId: 'CLM-91077', when: new Date() } as never },
      'INPUT_INVALID',
    ],
  ])('rejects %s before writing anything', async (_name, overrides, code) => {
    const store = sqliteStore({ path: ':memory:' });
    expect(await rejectionCode(() => fixed(store).record(incident(overrides as Partial<RecordOptions>)))).toBe(code);
    expect(await store.listRuns()).toEqual([]);
  });

  it('ends the run with PROVIDER_REJECTED when the provider refuses a request', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const build = { ...scenario.builds.baseline!, params: { maxTokens: 2048, temperature: 0 } };
    const run = await fixed(store).record(incident({ agent: build }));
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'PROVIDER_REJECTED', step: 1 });
    expect(run.error?.message).toMatch(/temperature is not supported by claude-opus-5/);
    expect(run.steps).toEqual([]);
  });

  it('feeds a tool that throws back to the model as an error result', async () => {
    const world = syntheticWorld({ toolCalls: 1 });
    const failing: World = {
      ...world,
      tools: {
        ...world.tools,
        echo: () => {
          throw new Error('backend down');
        },
      },
    };
    const run = await fixed(sqliteStore({ path: ':memory:' })).record({
      agent: testAgent(),
      world: failing,
      input: { n: 1 },
    });
    expect(run.steps[1]).toMatchObject({
      kind: 'echo',
      response: { output: { error: 'backend down' }, isError: true },
    });
    expect(run.status).toBe('completed');
  });

  it('stops a run whose provider throws with PROVIDER_FAILED at the step it was making, every step before it kept', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const world = syntheticWorld({ toolCalls: 3 });
    let calls = 0;
    const flaky: World = {
      ...world,
      model: {
        respond: (request) =>
          ++calls === 3
            ? Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }))
            : world.model.respond(request),
      },
    };
    const run = await fixed(store).record({ agent: testAgent(), world: flaky, input: { n: 1 } });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'PROVIDER_FAILED', step: 5 });
    expect(run.error?.message).toMatch(/model#2 \(step 5\): fetch failed \(ECONNRESET\)/);
    expect(run.steps.map((step) => step.step)).toEqual([1, 2, 3, 4]);
    expect(await store.getRun('aaaa0001')).toMatchObject({
      status: 'failed',
      stepCount: 4,
      error: { code: 'PROVIDER_FAILED', step: 5 },
    });
  });

  it('closes the run as failed with INTERNAL, at the step it was making, when a bug escapes the drive, and rethrows', async () => {
    const inner = sqliteStore({ path: ':memory:' });
    let commits = 0;
    const store: Store = {
      ...inner,
      commitStep: async (...args) => {
        if (++commits === 2) throw new TypeError('a store bug');
        await inner.commitStep(...args);
      },
    };
    expect(
      await rejectionCode(() =>
        fixed(store).record({ agent: testAgent(), world: syntheticWorld({ toolCalls: 2 }), input: { n: 1 } }),
      ),
    ).toBe('INTERNAL');
    expect(await inner.getRun('aaaa0001')).toMatchObject({
      status: 'failed',
      stepCount: 1,
      error: { code: 'INTERNAL', message: 'a store bug', step: 2 },
    });
  });

  it('tells an interrupted run by its owner lease, not by a PID alone', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const build = testAgent();
    const sink = streamingSink(store, { leaseClock: () => 0, leaseMs: 30_000 });
    await new RunWriter(sink, new RequestHasher(), FROM_INPUT).start(
      {
        runId: 'dead0001',
        mode: 'record',
        agentName: build.name,
        build: build.build,
        codeHash: build.codeHash,
        scenario: null,
        input: { n: 1 },
        worldAt: null,
        seed: 1,
        parent: null,
        sourceRunId: null,
        sourceCassette: null,
        canonicalForm: 'forkpoint-canonical/1',
        machineVersion: 1,
        createdAt: '2026-03-04T10:00:00.000Z',
        tier: 'full',
        expiresAt: null,
        structuralExpiresAt: null,
        sideEffects: null,
        owner: { pid: 1, host: 'this-host', token: 't-1', leaseExpiresAt: 30_000 },
      },
      startSnapshot(build, { n: 1 }, { clock: () => new Date(0), random: () => 0 }),
    );
    sink.close();
    const status = async (options: Partial<EngineOptions>) =>
      (
        await fixed(store, {
          host: 'this-host',
          leaseClock: () => 10_000,
          isProcessAlive: () => true,
          ...options,
        }).getRun('dead0001')
      ).status;
    // Within the lease, a live owner PID on this host is at work.
    expect(await status({})).toBe('running');
    // Its process gone from this host: interrupted, without waiting for the lease.
    expect(await status({ isProcessAlive: () => false })).toBe('interrupted');
    // PID 1 is always alive (a container's init, a reused PID): the lapsed lease still tells.
    expect(await status({ leaseClock: () => 30_001 })).toBe('interrupted');
    // On another host (or PID namespace) a PID says nothing: the lease decides.
    expect(await status({ host: 'other-host', isProcessAlive: () => false })).toBe('running');
    expect(await status({ host: 'other-host', isProcessAlive: () => false, leaseClock: () => 30_001 })).toBe(
      'interrupted',
    );
  });
});
