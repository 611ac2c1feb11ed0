import { expect, it } from 'vitest';
import { isForkpointError } from '../errors/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { Finding } from '../vocabulary/index.js';
import type { StoreSuite } from './store-suite.js';

/** How a store creates, steps, finishes and lists runs: every field read back as written, all or nothing. Registered by `describeStoreConformance`. */
export function describeRunConformance(suite: StoreSuite): void {
  it('creates a run with its row 0 and reads every field back', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun({ runId: 'ffff0000' }), sampleStep(0, { checkpointFull: true }), []);
    const run = sampleRun({
      parent: {
        runId: 'ffff0000',
        atStep: 3,
        override: { kind: 'tool-result', output: { a: 1 } },
        changes: [{ path: 'a', before: '0', after: '1' }],
        migration: { machine: { from: 1, to: 2 }, state: { from: null, to: 3, build: 'stateful' } },
      },
      sourceRunId: 'ffff0000',
      sideEffects: { default: 'refuse', tools: { refund: 'simulate' } },
    });
    await store.createRun(run, sampleStep(0, { checkpointFull: true }), []);
    const read = await store.getRun(run.runId);
    expect(read).toEqual({
      ...run,
      status: 'running',
      outcome: null,
      error: null,
      findings: [],
      finishedAt: null,
      stepCount: 0,
      purge: null,
      resumes: [],
      usage: null,
      signature: null,
    });
    expect(read?.input.note).toBe('half an emoji: \ud83d');
    expect(await store.readSteps(run.runId)).toEqual([sampleStep(0, { checkpointFull: true })]);
  });

  it('refuses a run id that exists, with RUN_EXISTS, and writes nothing', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'a1', body: '"first"' }]);
    let caught: unknown;
    try {
      await store.createRun(
        sampleRun({ build: 'other' }),
        sampleStep(0, { checkpointFull: true, checkpoint: '{"other":true}' }),
        [{ digest: 'b2', body: '"second"' }],
      );
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'RUN_EXISTS')).toBe(true);
    expect((await store.getRun('0000abcd'))?.build).toBe('baseline');
    expect((await store.readSteps('0000abcd'))[0]?.checkpoint).toBe('{"step":0}');
    expect((await store.readBlobs(['b2'])).size).toBe(0);
  });

  it('commits steps in order and counts them on the run', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    for (let step = 1; step <= 6; step++)
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step), [
        { digest: `blob-${step}`, body: `{"n":${step}}` },
      ]);
    expect((await store.getRun('0000abcd'))?.stepCount).toBe(6);
    expect((await store.readSteps('0000abcd')).map((row) => row.step)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await store.readSteps('0000abcd', 2, 4)).toEqual([sampleStep(2), sampleStep(3), sampleStep(4)]);
  });

  it('writes a step and its blobs all or nothing', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    await expect(
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), [{ digest: 'orphan', body: '"x"' }]),
    ).rejects.toThrow();
    expect((await store.readBlobs(['orphan'])).size).toBe(0);
    expect((await store.getRun('0000abcd'))?.stepCount).toBe(1);
  });

  it('finishes a run once, and refuses steps after it', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    const finish = {
      status: 'failed' as const,
      outcome: null,
      error: { code: 'VALIDATION_FAILED' as const, message: 'payout -234 is negative', step: 1 },
      finishedAt: '2026-03-04T10:00:05.000Z',
    };
    await store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, finish);
    const read = await store.getRun('0000abcd');
    expect(read).toMatchObject({
      status: 'failed',
      error: finish.error,
      finishedAt: finish.finishedAt,
      outcome: null,
      stepCount: 1,
    });
    await expect(store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, { ...finish, status: 'completed' })).rejects.toThrow();
    await expect(store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [])).rejects.toThrow();
    expect((await store.readSteps('0000abcd')).map((row) => row.step)).toEqual([0, 1]);
  });

  it("commits a last step and the run's ending together, and refuses steps after it", async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    const finish = {
      status: 'completed' as const,
      outcome: { payout: 2050 },
      error: null,
      finishedAt: '2026-03-04T10:00:06.000Z',
    };
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [{ digest: 'last', body: '"last"' }], finish);
    expect(await store.getRun('0000abcd')).toMatchObject({
      status: 'completed',
      outcome: finish.outcome,
      error: null,
      finishedAt: finish.finishedAt,
      stepCount: 2,
    });
    expect((await store.readBlobs(['last'])).get('last')).toBe('"last"');
    await expect(
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(3), [{ digest: 'late', body: '"late"' }], finish),
    ).rejects.toThrow();
    await expect(store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, finish)).rejects.toThrow();
    expect((await store.readSteps('0000abcd')).map((row) => row.step)).toEqual([0, 1, 2]);
    expect((await store.readBlobs(['late'])).size).toBe(0);
  });

  it('writes a whole run in one transaction, with its findings', async () => {
    const store = await suite.fresh();
    const findings: readonly Finding[] = [
      {
        classification: 'dropped-call',
        step: 5,
        kind: 'echo',
        index: 0,
        actualHash: null,
        recordedHashes: ['00000000000000aa'],
        changed: [],
        diff: [],
        message: 'echo#0 (step 5): recorded as 00000000000000aa but the replay never asked for it; dropped-call',
      },
    ];
    await store.writeRun(
      sampleRun({ mode: 'replay:strict', sourceRunId: 'elsewhere', sourceCassette: 'cassettes/a.json', owner: null }),
      [sampleStep(0, { checkpointFull: true }), sampleStep(1), sampleStep(2)],
      [{ digest: 'w1', body: '"w"' }],
      { status: 'completed', outcome: { ok: true }, error: null, finishedAt: 'done', findings },
    );
    expect(await store.getRun('0000abcd')).toMatchObject({
      mode: 'replay:strict',
      status: 'completed',
      stepCount: 2,
      findings,
      sourceRunId: 'elsewhere',
      sourceCassette: 'cassettes/a.json',
    });
    expect(await store.readSteps('0000abcd')).toHaveLength(3);
    expect((await store.readBlobs(['w1'])).get('w1')).toBe('"w"');
  });

  it('writes nothing of a whole run whose id exists', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    let caught: unknown;
    try {
      await store.writeRun(
        sampleRun({ build: 'other', owner: null }),
        [sampleStep(0, { checkpointFull: true }), sampleStep(1)],
        [{ digest: 'w2', body: '"w"' }],
        {
          status: 'completed',
          outcome: null,
          error: null,
          finishedAt: 'x',
        },
      );
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'RUN_EXISTS')).toBe(true);
    expect(await store.readSteps('0000abcd')).toHaveLength(1);
    expect((await store.readBlobs(['w2'])).size).toBe(0);
  });

  it('keeps a completed run outcome', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
      status: 'completed',
      outcome: { decision: 'approve', payout: 1795 },
      error: null,
      finishedAt: 'x',
    });
    expect((await store.getRun('0000abcd'))?.outcome).toEqual({ decision: 'approve', payout: 1795 });
  });

  it('lists runs oldest first and answers undefined for unknown ids', async () => {
    const store = await suite.fresh();
    await store.createRun(
      sampleRun({ runId: '00000002', createdAt: '2026-03-05T00:00:00.000Z' }),
      sampleStep(0, { checkpointFull: true }),
      [],
    );
    await store.createRun(
      sampleRun({ runId: '00000001', createdAt: '2026-03-04T00:00:00.000Z' }),
      sampleStep(0, { checkpointFull: true }),
      [],
    );
    expect((await store.listRuns()).map((run) => run.runId)).toEqual(['00000001', '00000002']);
    expect(await store.getRun('99999999')).toBeUndefined();
    expect(await store.readSteps('99999999')).toEqual([]);
  });
}
