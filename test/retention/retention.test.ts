import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import type { ForkOverride } from '../../src/fork/index.js';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { parseCassette, serializeCassette } from '../../src/cassette/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, worldAt } from '../support/incident.js';
import claims, { supervised } from '../../scenarios/claims-triage/index.js';

const RECORDED = new Date('2026-03-04T09:00:00.000Z');
const hoursLater = (hours: number) => new Date(RECORDED.getTime() + hours * 3_600_000);
const corrected: ForkOverride = {
  kind: 'tool-merge',
  patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } },
};

/** An in-memory engine whose clock the test moves. */
function engineWithClock(): { engine: Engine; setNow: (at: Date) => void } {
  let now = RECORDED;
  const engine = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => new Date(now) });
  return { engine, setNow: (at) => (now = at) };
}

const recordIncident = (engine: Engine, runId = '9b40c1d5') =>
  engine.record({
    agent: build('baseline'),
    world: worldAt('2026-03-04', 7),
    input: { claimId: 'CLM-91077' },
    runId,
    scenario: 'scenarios/claims-triage',
  });

async function codeAndMessage(work: () => Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await work();
  } catch (error) {
    if (isForkpointError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

async function rejected(work: Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await work;
  } catch (error) {
    if (isForkpointError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

describe('retention of the full tier', () => {
  it('stamps a recording with a 72-hour full tier and a 90-day structural tier', async () => {
    const { engine } = engineWithClock();
    const incident = await recordIncident(engine);
    expect(incident.retention).toEqual({
      tier: 'full',
      expiresAt: '2026-03-07T09:00:00.000Z',
      structuralExpiresAt: '2026-06-02T09:00:00.000Z',
      purge: null,
      expired: false,
    });
  });

  it('shows no payload of a full tier that has expired, whether or not gc has removed it yet', async () => {
    const { engine, setNow } = engineWithClock();
    await recordIncident(engine);
    setNow(hoursLater(71));
    expect(await engine.getRun('9b40c1d5')).toMatchObject({
      input: { claimId: 'CLM-91077' },
      retention: { expired: false },
    });
    expect((await engine.getRun('9b40c1d5')).steps).toHaveLength(9);
    setNow(hoursLater(73));
    const shown = await engine.getRun('9b40c1d5');
    expect(shown).toMatchObject({
      input: { claimId: 'aaaaaaaaa' },
      steps: [],
      retention: { expired: true, purge: null },
    });
    expect(shown.error?.message).toMatch(/^a+$/);
    expect(JSON.stringify(await engine.listRuns())).not.toContain('CLM-91077');
    expect(JSON.stringify(await engine.lineage('9b40c1d5'))).not.toContain('CLM-91077');
    // The rows are still there until gc runs; a read just never shows them.
    expect(await engine.store.readSteps('9b40c1d5')).toHaveLength(10);
  });

  it('after gc 73 hours later cannot replay, fork, export or re-execute the incident in full, but replays it structurally', async () => {
    const { engine, setNow } = engineWithClock();
    const incident = await recordIncident(engine);
    setNow(hoursLater(71));
    expect((await engine.gc()).purged).toEqual([]);

    setNow(hoursLater(73));
    const report = await engine.gc();
    expect(report.purged).toEqual([
      {
        runId: '9b40c1d5',
        expiredAt: '2026-03-07T09:00:00.000Z',
        steps: 9,
        structuralUntil: '2026-06-02T09:00:00.000Z',
      },
    ]);
    expect(report.blobs).toBeGreaterThan(0);
    expect(await engine.store.readSteps('9b40c1d5')).toEqual([]);

    const full = await codeAndMessage(async () => await engine.cassette('9b40c1d5'));
    expect(full?.code).toBe('CASSETTE_EXPIRED');
    expect(full?.message).toMatch(/expired at 2026-03-07T09:00:00.000Z and was removed/);
    expect(full?.message).toMatch(/structural tier remains until 2026-06-02T09:00:00.000Z/);
    expect(
      (
        await rejected(
          engine.fork({
            parentRunId: '9b40c1d5',
            atStep: 4,
            override: corrected,
            agent: build('baseline'),
            world: worldAt('2026-03-04'),
          }),
        )
      )?.code,
    ).toBe('CASSETTE_EXPIRED');
    expect(
      (
        await rejected(
          engine.reexecute({
            sourceRunId: '9b40c1d5',
            agent: build('baseline'),
            world: worldAt('2026-03-09'),
          }),
        )
      )?.code,
    ).toBe('CASSETTE_EXPIRED');
    expect((await codeAndMessage(async () => await engine.checkpoint('9b40c1d5', 3)))?.code).toBe('CASSETTE_EXPIRED');

    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette('9b40c1d5', 'structural'),
      mode: 'structural',
    });
    expect(replay).toMatchObject({
      mode: 'replay:structural',
      status: 'completed',
      divergence: null,
      sourceRunId: '9b40c1d5',
    });
    expect(replay.steps).toHaveLength(incident.steps.length);
    expect(replay.retention.tier).toBe('structural');

    const summary = await engine.getRunSummary('9b40c1d5');
    expect(summary).toMatchObject({ status: 'failed', stepCount: 9, error: { code: 'VALIDATION_FAILED', step: 9 } });
    expect(summary.input).toEqual({ claimId: 'aaaaaaaaa' });
    expect(summary.retention.purge).toEqual({ at: '2026-03-07T10:00:00.000Z', reason: 'expired' });
  });

  it('refuses an expired full tier even before gc has removed it, naming the expiry', async () => {
    const { engine, setNow } = engineWithClock();
    await recordIncident(engine);
    const cassette = await engine.cassette('9b40c1d5');
    setNow(hoursLater(72));
    expect((await codeAndMessage(async () => await engine.cassette('9b40c1d5')))?.message).toMatch(
      /expired at 2026-03-07T09:00:00.000Z \(`gc` removes it\)/,
    );
    const replay = await rejected(engine.replay({ agent: build('baseline'), cassette, mode: 'strict' }));
    expect(replay?.code).toBe('CASSETTE_EXPIRED');
    const fromFile = await rejected(
      engine.replay({
        agent: build('baseline'),
        cassette: parseCassette(serializeCassette(cassette), 'incident.json'),
        cassetteFile: 'incident.json',
        mode: 'strict',
      }),
    );
    expect(fromFile?.message).toMatch(
      /cassette incident.json \(full tier of run 9b40c1d5\) expired at 2026-03-07T09:00:00.000Z/,
    );
  });

  it('lets a fork live no longer than its parent, and collects it with its parent', async () => {
    const { engine, setNow } = engineWithClock();
    await recordIncident(engine);
    setNow(hoursLater(10));
    const fork = await engine.fork({
      parentRunId: '9b40c1d5',
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: 'simulate',
    });
    const forkRun = await engine.getRun(fork.runId);
    expect(fork.retention.expiresAt).toBe('2026-03-07T09:00:00.000Z');
    // A fork's steps are read from the store when first read: count them while its rows are there.
    const forkSteps = forkRun.steps.length;
    setNow(hoursLater(73));
    const report = await engine.gc();
    expect(report.purged.map((run) => run.runId).sort()).toEqual(['9b40c1d5', fork.runId].sort());
    // The fork's structural tier was made from its parent's rows before they went.
    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette(fork.runId, 'structural'),
      mode: 'structural',
    });
    expect(replay.status).toBe('completed');
    expect(replay.steps).toHaveLength(forkSteps);
  });

  it('removes only the blobs no other run refers to: a later recording of the same claim still replays in full', async () => {
    const { engine, setNow } = engineWithClock();
    await recordIncident(engine);
    setNow(hoursLater(48));
    const later = await recordIncident(engine, 'c0ffee01');
    setNow(hoursLater(73));
    expect((await engine.gc()).purged.map((run) => run.runId)).toEqual(['9b40c1d5']);
    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette('c0ffee01'),
      mode: 'strict',
    });
    expect(replay).toMatchObject({ status: 'failed', divergence: null, error: { code: 'VALIDATION_FAILED' } });
    expect(replay.steps.map((step) => step.response)).toEqual(later.steps.map((step) => step.response));
  });

  it('removes the structural record after 90 days and keeps the summary; synthetic runs never expire', async () => {
    const { engine, setNow } = engineWithClock();
    await recordIncident(engine);
    const synthetic = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91002' },
      tier: 'synthetic',
    });
    expect(synthetic.retention).toMatchObject({ tier: 'synthetic', expiresAt: null, structuralExpiresAt: null });
    setNow(hoursLater(73));
    await engine.gc();
    setNow(hoursLater(24 * 91));
    expect((await engine.gc()).structuralRemoved).toEqual(['9b40c1d5']);
    expect((await codeAndMessage(async () => await engine.cassette('9b40c1d5', 'structural')))?.message).toMatch(
      /structural tier of run 9b40c1d5 expired at 2026-06-02T09:00:00.000Z; only the run summary remains/,
    );
    expect((await engine.getRunSummary('9b40c1d5')).status).toBe('failed');
    setNow(new Date('2036-01-01T00:00:00Z'));
    await engine.gc();
    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette(synthetic.runId),
      mode: 'strict',
    });
    expect(replay).toMatchObject({ status: 'completed', divergence: null });
    expect(await engine.cassette(synthetic.runId)).toMatchObject({ tier: 'synthetic', expiresAt: null });
  });
});

describe('the capture policy', () => {
  it('keeps runs that fail, and keeps only the structural tier of the rest when none is sampled', async () => {
    const { engine } = engineWithClock();
    const policy = { keep: 'errors+sample', rate: 0 } as const;
    const failed = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91077' },
      capture: policy,
    });
    const completed = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91002' },
      capture: policy,
    });
    expect(failed.capture).toMatchObject({ kept: true, reason: 'error' });
    expect(completed.capture).toMatchObject({ kept: false, reason: 'not-sampled' });
    expect(completed.capture!.bytes.structural * 5).toBeLessThan(completed.capture!.bytes.full);
    expect(completed.retention.purge).toMatchObject({ reason: 'capture-policy' });
    expect(completed.steps).toHaveLength(9);
    expect((await engine.getRun(completed.runId)).steps).toEqual([]);
    expect((await codeAndMessage(async () => await engine.cassette(completed.runId)))?.message).toMatch(
      /was not kept: the capture policy kept only its structural tier/,
    );
    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette(completed.runId, 'structural'),
      mode: 'structural',
    });
    expect(replay.status).toBe('completed');
    expect((await engine.cassette(failed.runId)).entries).toHaveLength(9);
  });

  it('samples a run by its seed and id: the same run always, about the rate over many', async () => {
    const { sampleDraw, decideCapture } = await import('../../src/retention/index.js');
    const run = { runId: '9b40c1d5', seed: 7, status: 'completed' as const };
    expect(sampleDraw(run)).toBe(sampleDraw({ ...run }));
    const draws = Array.from({ length: 4000 }, (_, i) =>
      sampleDraw({ runId: i.toString(16).padStart(8, '0'), seed: i }),
    );
    const kept = draws.filter((draw) => draw < 0.1).length / draws.length;
    expect(kept).toBeGreaterThan(0.08);
    expect(kept).toBeLessThan(0.12);
    expect(decideCapture({ keep: 'errors+sample', rate: 1 }, run)).toEqual({ kept: true, reason: 'sampled' });
    expect(decideCapture({ keep: 'all' }, { ...run, status: 'failed' })).toEqual({ kept: true, reason: 'all' });
  });

  it('keeps a run that waits for a person whole, as waiting, not as an error: the answer continues it from its full tier', async () => {
    const { engine } = engineWithClock();
    const world = () => claims.openWorld({ at: '2026-03-09', seed: 20260309, latencyMs: 0 });
    const waiting = await engine.record({
      agent: supervised,
      world: world(),
      input: { claimId: 'CLM-91077' },
      capture: { keep: 'errors+sample', rate: 0 },
    });
    expect(waiting).toMatchObject({
      status: 'awaiting-approval',
      capture: { kept: true, reason: 'awaiting-approval' },
    });
    const approved = await engine.approve({ runId: waiting.runId, agent: supervised, world: world(), by: 'dana' });
    expect(approved.status).toBe('completed');
  });
});
