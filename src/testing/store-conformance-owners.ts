import { expect, it } from 'vitest';
import { isForkpointError } from '../errors/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/** How a store keeps a running run to its owner: tokens, leases, and resumes that only one process wins. Registered by `describeStoreConformance`. */
export function describeOwnerConformance(suite: StoreSuite): void {
  it("writes a step only for its run's owner: another token gets LEASE_LOST and writes nothing", async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    let caught: unknown;
    try {
      await store.commitStep('0000abcd', 'someone-else', sampleStep(1), [{ digest: 'stray', body: '"stray"' }]);
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'LEASE_LOST')).toBe(true);
    expect(await store.readSteps('0000abcd')).toHaveLength(1);
    expect((await store.readBlobs(['stray'])).size).toBe(0);
    await expect(
      store.finishRun('0000abcd', 'someone-else', {
        status: 'completed',
        outcome: null,
        error: null,
        finishedAt: 'x',
      }),
    ).rejects.toThrow();
    expect((await store.getRun('0000abcd'))?.status).toBe('running');
  });

  it('renews the lease of a running run for its owner only, and drops the owner when the run ends', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    expect(await store.renewLease('0000abcd', SAMPLE_OWNER_TOKEN, 1_900_000_030_000)).toBe(true);
    expect((await store.getRun('0000abcd'))?.owner).toEqual({
      pid: 4242,
      host: 'test-host',
      token: SAMPLE_OWNER_TOKEN,
      leaseExpiresAt: 1_900_000_030_000,
    });
    expect(await store.renewLease('0000abcd', 'someone-else', 1_900_000_060_000)).toBe(false);
    expect((await store.getRun('0000abcd'))?.owner?.leaseExpiresAt).toBe(1_900_000_030_000);
    await store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
      status: 'completed',
      outcome: { ok: true },
      error: null,
      finishedAt: 'x',
    });
    expect((await store.getRun('0000abcd'))?.owner).toBeNull();
    expect(await store.renewLease('0000abcd', SAMPLE_OWNER_TOKEN, 1_900_000_090_000)).toBe(false);
  });

  const resumeOf = (attempt: number, fromStep: number) => ({
    attempt,
    fromStep,
    at: '2026-03-04T11:00:00.000Z',
    after: 'interrupted',
    sideEffects: { default: 'refuse' as const, tools: {} },
  });
  const newOwner = { pid: 77, host: 'other-host', token: 'owner-token-2', leaseExpiresAt: 1_900_000_100_000 };

  it('hands an interrupted run to a resumer in one step, and fences its old owner out', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    await store.resumeRun({
      runId: '0000abcd',
      expected: { status: 'running', ownerToken: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1_900_000_000_000 },
      owner: newOwner,
      resume: resumeOf(2, 2),
    });
    const read = await store.getRun('0000abcd');
    // The run's own policy stays its first attempt's; the resume carries its own.
    expect(read).toMatchObject({
      status: 'running',
      owner: newOwner,
      stepCount: 1,
      resumes: [resumeOf(2, 2)],
      sideEffects: null,
    });
    await expect(store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [])).rejects.toThrow(
      /resumed by another process/,
    );
    await store.commitStep('0000abcd', newOwner.token, sampleStep(2), []);
    await store.finishRun('0000abcd', newOwner.token, {
      status: 'completed',
      outcome: { ok: true },
      error: null,
      finishedAt: 'y',
    });
    expect(await store.getRun('0000abcd')).toMatchObject({
      status: 'completed',
      stepCount: 2,
      owner: null,
      resumes: [resumeOf(2, 2)],
    });
  });

  it('lets only one of two resumers of the same run win, and the loser writes nothing', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    const expected = {
      status: 'running' as const,
      ownerToken: SAMPLE_OWNER_TOKEN,
      leaseExpiresAt: 1_900_000_000_000,
    };
    await store.resumeRun({ runId: '0000abcd', expected, owner: newOwner, resume: resumeOf(2, 1) });
    let caught: unknown;
    try {
      await store.resumeRun({
        runId: '0000abcd',
        expected,
        owner: { ...newOwner, token: 'owner-token-3' },
        resume: resumeOf(2, 1),
      });
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'RESUME_REFUSED')).toBe(true);
    expect(await store.getRun('0000abcd')).toMatchObject({ owner: newOwner, resumes: [resumeOf(2, 1)] });
  });

  it('reopens a failed run for a resume: running again, without its ending, its steps kept', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    await store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
      status: 'failed',
      outcome: null,
      error: { code: 'PROVIDER_FAILED', message: 'down', step: 2 },
      finishedAt: 'x',
    });
    await store.resumeRun({
      runId: '0000abcd',
      expected: { status: 'failed', ownerToken: null, leaseExpiresAt: null },
      owner: newOwner,
      resume: { ...resumeOf(2, 2), after: 'PROVIDER_FAILED' },
    });
    expect(await store.getRun('0000abcd')).toMatchObject({
      status: 'running',
      error: null,
      finishedAt: null,
      stepCount: 1,
      owner: newOwner,
    });
    await store.commitStep('0000abcd', newOwner.token, sampleStep(2), [], {
      status: 'completed',
      outcome: { ok: true },
      error: null,
      finishedAt: 'z',
    });
    expect(await store.getRun('0000abcd')).toMatchObject({ status: 'completed', stepCount: 2 });
    expect((await store.readSteps('0000abcd')).map((row) => row.step)).toEqual([0, 1, 2]);
  });
}
