import { describe, expect, it } from 'vitest';
import type { FullTierPurge, Store } from '../../src/store/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { collectGarbage, GC_BATCH_RUNS } from '../../src/retention/collect-garbage.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

const RECORDED = new Date('2026-03-04T09:00:00.000Z');
const LATER = new Date('2026-03-07T10:00:00.000Z');

/** A store that records every purge gc asks for, and refuses to list every run. */
function watched(store: Store): { store: Store; purges: FullTierPurge[][]; savedApart: string[] } {
  const purges: FullTierPurge[][] = [];
  const savedApart: string[] = [];
  return {
    purges,
    savedApart,
    store: {
      ...store,
      listRuns: () => {
        throw new Error('gc read every run');
      },
      purgeRuns: async (batch) => {
        purges.push([...batch]);
        return await store.purgeRuns(batch);
      },
      saveStructural: async (runId, body) => {
        savedApart.push(runId);
        await store.saveStructural(runId, body);
      },
    },
  };
}

async function recordRuns(count: number, toolCalls = 1) {
  let now = RECORDED;
  let ids = 0;
  const store = sqliteStore({ path: ':memory:' });
  const engine = createEngine({ store, clock: () => now, newRunId: () => (ids++).toString(16).padStart(8, '0') });
  const agent = testAgent();
  const runs: string[] = [];
  for (let i = 0; i < count; i++)
    runs.push(
      (await engine.record({ agent, world: syntheticWorld({ toolCalls, resultBytes: 300 }), input: { task: i } }))
        .runId,
    );
  now = LATER;
  return { store, engine, agent, runs, setNow: (at: Date) => (now = at) };
}

describe('gc in bounded batches', () => {
  it('purges N expired runs in ceil(N / batch) transactions, each run with its structural record, without listing every run', async () => {
    const { store, runs } = await recordRuns(11);
    const watch = watched(store);
    const report = await collectGarbage(watch.store, LATER, () => false, { batchRuns: 4 });
    expect(watch.purges.map((batch) => batch.length)).toEqual([4, 4, 3]);
    expect(watch.purges.flat().map((purge) => purge.runId)).toEqual(runs);
    // Each structural record goes in with its run's purge, in the same transaction.
    expect(watch.purges.flat().every((purge) => typeof purge.structural === 'string')).toBe(true);
    expect(watch.savedApart).toEqual([]);
    expect(report.purged.map((run) => run.runId)).toEqual(runs);
    expect(report.purged.every((run) => run.structuralUntil !== null)).toBe(true);
    for (const runId of runs) expect(await store.readStructural(runId)).toBeDefined();
    await store.close();
  });

  it('batches by step rows too: a long run goes alone, short ones share', async () => {
    const long = await recordRuns(1, 20);
    const short = await recordRuns(3, 1);
    for (const { store } of [long, short]) {
      const watch = watched(store);
      await collectGarbage(watch.store, LATER, () => false, { batchRuns: 10, batchSteps: 12 });
      // 41 rows for the long run; 4 rows each for the short ones.
      expect(watch.purges.map((batch) => batch.length)).toEqual(store === long.store ? [1] : [3]);
      await store.close();
    }
    expect(GC_BATCH_RUNS).toBeGreaterThan(1);
  });

  it('purges a fork no later than the run it reads, so that its structural record is made from rows still there', async () => {
    const { store, engine, agent, runs, setNow } = await recordRuns(1, 2);
    setNow(RECORDED);
    const world = syntheticWorld({ toolCalls: 2, resultBytes: 300 });
    const override = { kind: 'tool-result' as const, output: { changed: true } };
    const fork = await engine.fork({ parentRunId: runs[0]!, atStep: 2, agent, world, override });
    const forkOfFork = await engine.fork({ parentRunId: fork.runId, atStep: 4, agent, world, override });
    const watch = watched(store);
    const report = await collectGarbage(watch.store, LATER, () => false, { batchRuns: 1 });
    expect(watch.purges.map((batch) => batch.map((purge) => purge.runId))).toEqual([
      [forkOfFork.runId],
      [fork.runId],
      [runs[0]],
    ]);
    expect(watch.purges.flat().every((purge) => typeof purge.structural === 'string')).toBe(true);
    // The report lists them oldest first, as before.
    expect(report.purged.map((run) => run.runId)).toEqual([runs[0], fork.runId, forkOfFork.runId]);
    await store.close();
  });

  it('collects, on the next run, a fork that was being written while its parent was purged', async () => {
    const { store, engine, agent, runs, setNow } = await recordRuns(1, 2);
    setNow(RECORDED);
    const fork = await engine.fork({
      parentRunId: runs[0]!,
      atStep: 2,
      agent,
      world: syntheticWorld({ toolCalls: 2 }),
      override: { kind: 'tool-result', output: {} },
    });
    const first = await collectGarbage(store, LATER, (run) => run.runId === fork.runId);
    expect(first.purged.map((run) => run.runId)).toEqual([runs[0]]);
    const second = await collectGarbage(store, LATER, () => false);
    expect(second.purged.map((run) => run.runId)).toEqual([fork.runId]);
    await store.close();
  });
});
