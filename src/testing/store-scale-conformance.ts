import { expect, it } from 'vitest';
import type { Store } from '../store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/**
 * The conformance cases of what a store must do at scale: find what
 * retention must remove without reading every run, and purge in the same
 * transaction as the structural record it keeps (paging is
 * `describePagingConformance`'s). Registered by `describeStoreConformance`,
 * inside its `describe`.
 */
export function describeScaleConformance(suite: StoreSuite): void {
  const digest = (n: number): string => n.toString(16).padStart(32, '0');
  const ref = (n: number, key = '$blob'): string => `{"${key}":"${digest(n)}"}`;
  const blob = (n: number, body = `"body ${n}"`) => ({ digest: digest(n), body });
  const redacted = { input: { claimId: 'aaaaa' }, error: null, override: null, findings: [] };
  const purgeOf = (runId: string, structural?: string) => ({
    runId,
    purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' as const },
    redacted,
    ...(structural === undefined ? {} : { structural }),
  });
  const finished = {
    status: 'completed' as const,
    outcome: { ok: true },
    error: null,
    finishedAt: '2026-03-04T10:01:00.000Z',
  };
  // Runs made in this order: three at the same instant, as a fixed clock stamps them.
  const created = async (
    store: Store,
    runs: ReadonlyArray<[string, string, Partial<Parameters<typeof sampleRun>[0]>?]>,
  ): Promise<void> => {
    for (const [runId, createdAt, overrides] of runs) {
      await store.createRun(sampleRun({ runId, createdAt, ...overrides }), sampleStep(0, { checkpointFull: true }), []);
    }
  };

  it('finds the runs whose full tier expired, and forks still holding rows of a purged parent, oldest first', async () => {
    const store = await suite.fresh();
    await created(store, [
      ['cccc0001', '2026-03-01T00:00:00.000Z', { expiresAt: '2026-03-04T00:00:00.000Z' }],
      ['cccc0002', '2026-03-02T00:00:00.000Z', { expiresAt: '2026-03-05T00:00:00.000Z' }],
      ['cccc0003', '2026-03-03T00:00:00.000Z', { expiresAt: '2026-03-09T00:00:00.000Z' }],
      ['cccc0004', '2026-03-03T00:00:00.000Z', { expiresAt: null, structuralExpiresAt: null, tier: 'synthetic' }],
    ]);
    // A fork of cccc0003 that outlives nothing, and a run already purged.
    await store.createRun(
      sampleRun({
        runId: 'cccc0005',
        createdAt: '2026-03-04T00:00:00.000Z',
        expiresAt: '2026-03-09T00:00:00.000Z',
        parent: { runId: 'cccc0003', atStep: 1, override: null, changes: null },
      }),
      null,
      [],
    );
    expect((await store.expiredRuns('2026-03-06T00:00:00.000Z')).map((run) => run.runId)).toEqual([
      'cccc0001',
      'cccc0002',
    ]);
    expect(await store.expiredRuns('2026-03-01T00:00:00.000Z')).toEqual([]);
    await store.purgeRuns([purgeOf('cccc0001')]);
    expect((await store.expiredRuns('2026-03-06T00:00:00.000Z')).map((run) => run.runId)).toEqual(['cccc0002']);
    // Its parent purged by a gc that left it (it was being written then): the fork is collected next time.
    await store.purgeRuns([purgeOf('cccc0003')]);
    expect((await store.expiredRuns('2026-03-06T00:00:00.000Z')).map((run) => run.runId)).toEqual([
      'cccc0002',
      'cccc0005',
    ]);
  });

  it('finds the structural records that expired, and stores one with its purge, in the same transaction', async () => {
    const store = await suite.fresh();
    await created(store, [
      ['dddd0001', '2026-03-01T00:00:00.000Z', { structuralExpiresAt: '2026-06-01T00:00:00.000Z' }],
      ['dddd0002', '2026-03-02T00:00:00.000Z', { structuralExpiresAt: '2026-06-02T00:00:00.000Z' }],
      ['dddd0003', '2026-03-02T00:00:00.000Z', { structuralExpiresAt: null, expiresAt: null, tier: 'synthetic' }],
    ]);
    await store.saveStructural('dddd0002', '{"shape":2}');
    await store.purgeRuns([purgeOf('dddd0001', '{"shape":1}')]);
    await store.saveStructural('dddd0003', '{"shape":3}');
    expect(await store.readStructural('dddd0001')).toBe('{"shape":1}');
    expect(await store.expiredStructural('2026-06-01T12:00:00.000Z')).toEqual(['dddd0001']);
    expect(await store.expiredStructural('2027-01-01T00:00:00.000Z')).toEqual(['dddd0001', 'dddd0002']);
    // A purge that fails stores no structural record either.
    await expect(
      store.purgeRuns([purgeOf('dddd0002', '{"shape":"new"}'), purgeOf('ffffffff', '{}')]),
    ).rejects.toThrow();
    expect(await store.readStructural('dddd0002')).toBe('{"shape":2}');
    await store.dropStructural(['dddd0001']);
    expect(await store.expiredStructural('2027-01-01T00:00:00.000Z')).toEqual(['dddd0002']);
  });

  it('keeps a blob for the run it was handed to, and stores a removed one again for a run that brings it back', async () => {
    const store = await suite.fresh();
    await created(store, [['eeee0001', '2026-03-04T00:00:00.000Z']]);
    await store.commitStep('eeee0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [
      blob(1),
      blob(2, `{"inner":${ref(3)}}`),
      blob(3),
    ]);
    await store.commitStep('eeee0001', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(2, '$tree') }), [], finished);
    // A second run refers to the tree the first stored, without handing it over again.
    await created(store, [['eeee0002', '2026-03-04T00:00:01.000Z']]);
    await store.commitStep(
      'eeee0002',
      SAMPLE_OWNER_TOKEN,
      sampleStep(1, { checkpoint: `{"state":${ref(2, '$tree')}}` }),
      [],
      finished,
    );
    expect(await store.purgeRuns([purgeOf('eeee0001')])).toEqual({ steps: 3, blobs: 1 });
    expect([...(await store.readBlobs([digest(1), digest(2), digest(3)])).keys()].sort()).toEqual([
      digest(2),
      digest(3),
    ]);
    expect(await store.purgeRuns([purgeOf('eeee0002')])).toEqual({ steps: 2, blobs: 2 });
    expect((await store.readBlobs([digest(2), digest(3)])).size).toBe(0);
    // The same content stored again by a new run is that run's, whole.
    await created(store, [['eeee0003', '2026-03-04T00:00:02.000Z']]);
    await store.commitStep(
      'eeee0003',
      SAMPLE_OWNER_TOKEN,
      sampleStep(1, { response: ref(2, '$tree') }),
      [blob(2, `{"inner":${ref(3)}}`), blob(3)],
      finished,
    );
    expect((await store.readBlobs([digest(2), digest(3)])).size).toBe(2);
    await store.compact();
    expect((await store.readBlobs([digest(2), digest(3)])).size).toBe(2);
    expect(await store.purgeRuns([purgeOf('eeee0003')])).toEqual({ steps: 2, blobs: 2 });
  });

  it('keeps a blob another run stored that a run reaches through a tree of its own, whichever write handed the tree over', async () => {
    const store = await suite.fresh();
    await created(store, [
      ['abab0001', '2026-03-04T00:00:00.000Z'],
      ['abab0002', '2026-03-04T00:00:01.000Z'],
    ]);
    await store.commitStep('abab0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(30) }), [blob(30)], finished);
    // The tree comes with one step, and only the next step refers to it.
    await store.commitStep('abab0002', SAMPLE_OWNER_TOKEN, sampleStep(1), [blob(31, `{"x":${ref(30)}}`)]);
    await store.commitStep('abab0002', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(31, '$tree') }), [], finished);
    expect(await store.purgeRuns([purgeOf('abab0001')])).toEqual({ steps: 2, blobs: 0 });
    expect((await store.readBlobs([digest(30)])).get(digest(30))).toBe('"body 30"');
    expect(await store.purgeRuns([purgeOf('abab0002')])).toEqual({ steps: 3, blobs: 2 });
  });

  it('purges several runs at once that share blobs, keeping those a live run still reaches', async () => {
    const store = await suite.fresh();
    for (const [n, runId] of ['ffff0001', 'ffff0002', 'ffff0003'].entries()) {
      await created(store, [[runId, `2026-03-04T00:00:0${n}.000Z`]]);
      // Blob 7 is everyone's; blob 10 + n is the run's own.
      await store.commitStep(
        runId,
        SAMPLE_OWNER_TOKEN,
        sampleStep(1, { response: ref(7), message: `[${ref(10 + n)}]` }),
        [blob(7), blob(10 + n)],
        finished,
      );
    }
    expect(await store.purgeRuns([purgeOf('ffff0001'), purgeOf('ffff0002')])).toEqual({ steps: 4, blobs: 2 });
    expect([...(await store.readBlobs([digest(7), digest(10), digest(11), digest(12)])).keys()].sort()).toEqual([
      digest(7),
      digest(12),
    ]);
    expect(await store.purgeRuns([purgeOf('ffff0003')])).toEqual({ steps: 2, blobs: 2 });
  });
}
