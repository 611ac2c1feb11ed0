import { expect, it } from 'vitest';
import type { RunQuery, Store } from '../store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/**
 * The conformance cases of a page of runs (`queryRuns`): newest first, a
 * cursor, and every filter (mode, stored status, build, scenario, since and
 * until), alone and together. Registered by `describeStoreConformance`,
 * inside its `describe`.
 */
export function describePagingConformance(suite: StoreSuite): void {
  const finished = {
    status: 'completed' as const,
    outcome: { ok: true },
    error: null,
    finishedAt: '2026-03-04T10:01:00.000Z',
  };
  // Runs made in this order: several at the same instant, as a fixed clock stamps them.
  const created = async (
    store: Store,
    runs: ReadonlyArray<[string, string, Partial<Parameters<typeof sampleRun>[0]>?]>,
  ): Promise<void> => {
    for (const [runId, createdAt, overrides] of runs) {
      await store.createRun(sampleRun({ runId, createdAt, ...overrides }), sampleStep(0, { checkpointFull: true }), []);
    }
  };
  const idsOf = (store: Store) => async (query: RunQuery) => (await store.queryRuns(query)).map((run) => run.runId);

  it('pages runs newest first, ties in the order they were made, with a cursor that picks up after the last', async () => {
    const store = await suite.fresh();
    await created(store, [
      ['aaaa0001', '2026-03-04T00:00:00.000Z'],
      ['aaaa0002', '2026-03-05T00:00:00.000Z'],
      ['aaaa0003', '2026-03-05T00:00:00.000Z'],
      ['aaaa0004', '2026-03-05T00:00:00.000Z'],
      ['aaaa0005', '2026-03-03T00:00:00.000Z'],
    ]);
    const ids = (runs: ReadonlyArray<{ runId: string }>) => runs.map((run) => run.runId);
    expect(ids(await store.queryRuns({ limit: 10 }))).toEqual([
      'aaaa0004',
      'aaaa0003',
      'aaaa0002',
      'aaaa0001',
      'aaaa0005',
    ]);
    expect(ids(await store.queryRuns({ limit: 2 }))).toEqual(['aaaa0004', 'aaaa0003']);
    expect(ids(await store.queryRuns({ limit: 2, before: 'aaaa0003' }))).toEqual(['aaaa0002', 'aaaa0001']);
    expect(ids(await store.queryRuns({ limit: 2, before: 'aaaa0001' }))).toEqual(['aaaa0005']);
    expect(ids(await store.queryRuns({ limit: 2, before: 'aaaa0005' }))).toEqual([]);
    expect(await store.queryRuns({ limit: 2, before: 'ffffffff' })).toEqual([]);
    expect(ids(await store.queryRuns({ limit: 10, since: '2026-03-04T00:00:00.000Z' }))).toEqual([
      'aaaa0004',
      'aaaa0003',
      'aaaa0002',
      'aaaa0001',
    ]);
    // The page holds whole records, as getRun reads them.
    expect((await store.queryRuns({ limit: 1 }))[0]).toEqual(await store.getRun('aaaa0004'));
  });

  it('filters a page by mode, stored status and build, every filter at once', async () => {
    const store = await suite.fresh();
    await created(store, [
      ['bbbb0001', '2026-03-04T00:00:01.000Z'],
      ['bbbb0002', '2026-03-04T00:00:02.000Z', { build: 'patched' }],
      ['bbbb0003', '2026-03-04T00:00:03.000Z', { mode: 'replay:strict', build: 'patched' }],
      ['bbbb0004', '2026-03-04T00:00:04.000Z', { build: 'patched' }],
    ]);
    await store.finishRun('bbbb0004', SAMPLE_OWNER_TOKEN, {
      ...finished,
      status: 'failed',
      outcome: null,
      error: { code: 'VALIDATION_FAILED', message: 'no', step: 1 },
    });
    await store.finishRun('bbbb0002', SAMPLE_OWNER_TOKEN, finished);
    const ids = async (query: Parameters<Store['queryRuns']>[0]) =>
      (await store.queryRuns(query)).map((run) => run.runId);
    expect(await ids({ limit: 10, build: 'patched' })).toEqual(['bbbb0004', 'bbbb0003', 'bbbb0002']);
    expect(await ids({ limit: 10, mode: 'record', build: 'patched' })).toEqual(['bbbb0004', 'bbbb0002']);
    expect(await ids({ limit: 10, status: 'running' })).toEqual(['bbbb0003', 'bbbb0001']);
    expect(
      await ids({
        limit: 10,
        status: 'completed',
        build: 'patched',
        mode: 'record',
        since: '2026-03-04T00:00:02.000Z',
      }),
    ).toEqual(['bbbb0002']);
    expect(await ids({ limit: 1, build: 'patched', before: 'bbbb0004' })).toEqual(['bbbb0003']);
  });

  it('filters a page by scenario, exactly as stored, and by until, strictly before it', async () => {
    const store = await suite.fresh();
    const triage = 'scenarios/claims-triage';
    await created(store, [
      ['abcd0001', '2026-03-04T00:00:01.000Z', { scenario: triage }],
      ['abcd0002', '2026-03-04T00:00:02.000Z', { scenario: `${triage}/` }],
      ['abcd0003', '2026-03-04T00:00:03.000Z', { scenario: null }],
      ['abcd0004', '2026-03-04T00:00:03.000Z', { scenario: triage, build: 'patched' }],
      ['abcd0005', '2026-03-04T00:00:05.000Z', { scenario: `/home/someone/${triage}` }],
      ['abcd0006', '2026-03-04T00:00:06.000Z', { scenario: triage, mode: 'fork', build: 'patched' }],
    ]);
    await store.finishRun('abcd0004', SAMPLE_OWNER_TOKEN, finished);
    const ids = idsOf(store);
    expect(await ids({ limit: 10, scenario: triage })).toEqual(['abcd0006', 'abcd0004', 'abcd0001']);
    // Neither a path spelt otherwise nor a different case is the same scenario.
    expect(await ids({ limit: 10, scenario: 'scenarios/Claims-Triage' })).toEqual([]);
    expect(await ids({ limit: 10, scenario: `${triage}/` })).toEqual(['abcd0002']);
    // Two runs were made at 00:00:03: until that instant leaves both out, a millisecond later takes both.
    expect(await ids({ limit: 10, until: '2026-03-04T00:00:03.000Z' })).toEqual(['abcd0002', 'abcd0001']);
    expect(await ids({ limit: 10, until: '2026-03-04T00:00:03.001Z' })).toEqual([
      'abcd0004',
      'abcd0003',
      'abcd0002',
      'abcd0001',
    ]);
    expect(await ids({ limit: 10, until: '2026-03-04T00:00:01.000Z' })).toEqual([]);
    // A window, since included and until not; an empty one.
    const window = { since: '2026-03-04T00:00:02.000Z', until: '2026-03-04T00:00:06.000Z' };
    expect(await ids({ limit: 10, ...window })).toEqual(['abcd0005', 'abcd0004', 'abcd0003', 'abcd0002']);
    expect(await ids({ limit: 10, since: window.until, until: window.since })).toEqual([]);
    // Paged with the cursor, one run at a time, inside the window.
    expect(await ids({ limit: 1, ...window, before: 'abcd0004' })).toEqual(['abcd0003']);
    expect(await ids({ limit: 2, until: '2026-03-04T00:00:05.000Z', before: 'abcd0003' })).toEqual([
      'abcd0002',
      'abcd0001',
    ]);
    // Every filter at once.
    expect(await ids({ limit: 10, scenario: triage, build: 'patched', ...window })).toEqual(['abcd0004']);
    expect(
      await ids({ limit: 10, scenario: triage, build: 'patched', mode: 'record', status: 'completed', ...window }),
    ).toEqual(['abcd0004']);
    expect(await ids({ limit: 10, scenario: triage, status: 'running', ...window })).toEqual([]);
    expect(await ids({ limit: 10, scenario: triage, mode: 'fork', until: '2026-03-04T00:00:07.000Z' })).toEqual([
      'abcd0006',
    ]);
    expect(await ids({ limit: 10, scenario: triage, before: 'abcd0006', until: '2026-03-04T00:00:07.000Z' })).toEqual([
      'abcd0004',
      'abcd0001',
    ]);
  });
}
