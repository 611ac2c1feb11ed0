import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import type { VerifyResult } from '../../src/workflows/index.js';
import { storedVerification, storedVerifications, verifyRun } from '../../src/workflows/index.js';
import { olderBaseline } from '../../studies/divergence/older-baseline.js';
import { build, withIncident, worldAt, worldsAt } from '../support/incident.js';

/** A result as `verify --json` prints it. */
const printed = (result: VerifyResult): unknown => JSON.parse(JSON.stringify(result));

/** Every run record as the store holds it: what a read-only verification must leave exactly as it was. */
const storeContents = async (engine: Engine): Promise<string> => JSON.stringify(await engine.store.listRuns());

function steppedRandom(): () => number {
  let n = 0;
  return () => (n++ * 0.6180339887) % 1;
}

const query = { runId: '9b40c1d5', candidate: 'patched', baseline: 'baseline' } as const;

describe('storedVerification over the arms verifyRun stored', () => {
  it('gives the fix-confirmed result of strict replays, and writes nothing', async () => {
    const { engine } = await withIncident();
    const made = await verifyRun(engine, {
      ...query,
      candidate: build('patched'),
      baseline: build('baseline'),
      mode: 'replay',
      repeats: 2,
    });
    expect(made.verdict).toBe('fix-confirmed');
    const before = await storeContents(engine);
    const stored = await storedVerification(engine, { ...query, mode: 'replay' });
    expect(printed(stored)).toEqual(printed(made));
    expect(JSON.stringify(stored)).toBe(JSON.stringify(made));
    expect(await storeContents(engine)).toBe(before);
  });

  it('gives a candidate’s divergence as its replay found it, field diff and all', async () => {
    const { engine } = await withIncident();
    const made = await verifyRun(engine, {
      runId: '9b40c1d5',
      candidate: build('timestamped'),
      baseline: build('baseline'),
      mode: 'replay',
    });
    expect(made).toMatchObject({ verdict: 'candidate-diverged', divergence: { step: 1, kind: 'model' } });
    const stored = await storedVerification(engine, { ...query, candidate: 'timestamped', mode: 'replay' });
    expect(printed(stored)).toEqual(printed(made));
    expect(stored.divergence?.runId).toBe(made.candidate.runs[0]);
    expect(stored.divergence?.diff.map((change) => change.path)).toEqual(['system']);
  });

  it('gives the result of re-executed arms, with or without their world’s date', async () => {
    const { engine } = await withIncident();
    const made = await verifyRun(engine, {
      ...query,
      candidate: build('patched'),
      baseline: build('baseline'),
      mode: 'reexecution',
      world: worldsAt('2026-03-09', steppedRandom()),
      repeats: 2,
      sideEffects: 'simulate',
    });
    expect(made.verdict).toBe('not-reproducible');
    const stored = await storedVerification(engine, { ...query, mode: 'reexecution' });
    expect(printed(stored)).toEqual(printed(made));
    expect(printed(await storedVerification(engine, { ...query, mode: 'reexecution', at: '2026-03-09' }))).toEqual(
      printed(made),
    );
  });

  it('judges the newest code of a build: runs of an older release of it are not its arm', async () => {
    const { engine } = await withIncident();
    const older = await verifyRun(engine, {
      runId: '9b40c1d5',
      candidate: build('patched'),
      baseline: olderBaseline,
      mode: 'replay',
    });
    // The older release asks another first request: its replay cannot follow the recording.
    expect(older.control.outcomes).toEqual({ 'diverged: REPLAY_DIVERGED': 1 });
    const made = await verifyRun(engine, {
      ...query,
      candidate: build('patched'),
      baseline: build('baseline'),
      mode: 'replay',
    });
    const stored = await storedVerification(engine, { ...query, mode: 'replay' });
    expect(stored.control).toEqual(made.control);
    // Both runs of patched are of one code, and both count.
    expect(stored.candidate.runs).toEqual([...older.candidate.runs, ...made.candidate.runs]);
    expect(stored).toMatchObject({ verdict: 'fix-confirmed', repeats: 2 });
  });

  it('lists the verifications a recording has: its own build as control against each other build, per mode and world', async () => {
    const { engine } = await withIncident();
    const arms = { runId: '9b40c1d5', baseline: build('baseline') };
    await verifyRun(engine, { ...arms, candidate: build('patched'), mode: 'replay' });
    await verifyRun(engine, { ...arms, candidate: build('timestamped'), mode: 'replay', repeats: 2 });
    const world = worldsAt('2026-03-09', steppedRandom());
    await verifyRun(engine, {
      ...arms,
      candidate: build('patched'),
      mode: 'reexecution',
      world,
      sideEffects: 'simulate',
    });
    expect(await storedVerifications(engine, '9b40c1d5')).toEqual([
      { ...query, mode: 'replay', at: null, runs: { candidate: 1, control: 3 } },
      { ...query, candidate: 'timestamped', mode: 'replay', at: null, runs: { candidate: 2, control: 3 } },
      { ...query, mode: 'reexecution', at: '2026-03-09', runs: { candidate: 1, control: 1 } },
    ]);
  });
});

describe('storedVerification when there is nothing to judge', () => {
  it('says RUN_NOT_FOUND for an unknown recording, and for an arm with no run, with what to run', async () => {
    const { engine } = await withIncident();
    await expect(storedVerification(engine, { ...query, runId: '0badc0de', mode: 'replay' })).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
      message: expect.stringContaining('no run 0badc0de'),
    });
    await expect(storedVerification(engine, { ...query, mode: 'replay' })).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
      message:
        "no finished strict replay of run 9b40c1d5 with build patched is stored: the candidate arm has no run to judge; make its arms with `verifyRun(engine, { runId: '9b40c1d5', candidate, baseline, mode: 'replay' })` with the builds patched and baseline",
      details: { remedy: { kind: 'run-verification', ...query, mode: 'replay' } },
    });
    // Strict replays of the candidate alone: the control arm is the one missing.
    await engine.replay({ agent: build('patched'), cassette: await engine.cassette('9b40c1d5'), mode: 'strict' });
    await expect(storedVerification(engine, { ...query, mode: 'replay' })).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
      message: expect.stringContaining('with build baseline is stored: the control arm has no run to judge'),
    });
    await expect(storedVerification(engine, { ...query, mode: 'reexecution' })).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
      message: expect.stringContaining("mode: 'reexecution', world"),
    });
  });

  it('refuses one build as both arms, a date for replays, and re-executions of several worlds without a date', async () => {
    const { engine } = await withIncident();
    const arms = { runId: '9b40c1d5', candidate: build('patched'), baseline: build('baseline') };
    for (const at of ['2026-03-09', '2026-03-10'])
      await verifyRun(engine, { ...arms, mode: 'reexecution', world: () => worldAt(at), sideEffects: 'simulate' });
    const refused = [
      storedVerification(engine, { ...query, baseline: 'patched', mode: 'replay' }),
      storedVerification(engine, { ...query, mode: 'replay', at: '2026-03-09' }),
      storedVerification(engine, { ...query, mode: 'reexecution' }),
      storedVerification(engine, { ...query, runId: 'not-an-id', mode: 'replay' }),
    ];
    for (const attempt of refused) await expect(attempt).rejects.toMatchObject({ code: 'USAGE' });
    await expect(storedVerification(engine, { ...query, mode: 'reexecution' })).rejects.toThrow(
      'were re-executed against the worlds of 2026-03-09, 2026-03-10: name one of those dates',
    );
    expect(await storedVerification(engine, { ...query, mode: 'reexecution', at: '2026-03-10' })).toMatchObject({
      repeats: 1,
    });
  });

  it('says CASSETTE_EXPIRED once the runs’ full tiers are gone: their outcomes are shapes', async () => {
    let now = Date.parse('2026-03-04T09:00:00.000Z');
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => new Date(now) });
    await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91077' },
      runId: '9b40c1d5',
    });
    await verifyRun(engine, { ...query, candidate: build('patched'), baseline: build('baseline'), mode: 'replay' });
    now += 4 * 24 * 3600 * 1000;
    await expect(storedVerification(engine, { ...query, mode: 'replay' })).rejects.toMatchObject({
      code: 'CASSETTE_EXPIRED',
      message: expect.stringMatching(
        /^cannot judge the verification of run 9b40c1d5: the full tier of run 9b40c1d5 expired/,
      ),
    });
  });
});
