import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { sampleRun, sampleStep, SAMPLE_OWNER_TOKEN } from '../../src/testing/index.js';

const NOW = 1_800_000_000_000;

/**
 * Runs 00000001..00000030, a second apart; every third one still running: those whose id is even
 * under a live lease (running), the others under a lapsed one (interrupted). The rest completed,
 * and every fifth is a replay.
 */
async function store30(): Promise<Store> {
  const store = sqliteStore({ path: ':memory:' });
  for (let n = 1; n <= 30; n++) {
    const runId = String(n).padStart(8, '0');
    const running = n % 3 === 0;
    const owner = {
      pid: 1,
      host: 'elsewhere',
      token: SAMPLE_OWNER_TOKEN,
      leaseExpiresAt: n % 2 === 0 ? NOW + 1000 : NOW - 1000,
    };
    await store.createRun(
      sampleRun({
        runId,
        createdAt: `2026-03-04T10:00:${String(n).padStart(2, '0')}.000Z`,
        mode: n % 5 === 0 ? 'replay:strict' : 'record',
        owner,
      }),
      sampleStep(0, { checkpointFull: true }),
      [],
    );
    if (!running)
      await store.finishRun(runId, SAMPLE_OWNER_TOKEN, {
        status: 'completed',
        outcome: { ok: true },
        error: null,
        finishedAt: 'x',
      });
  }
  return store;
}

const engineOver = (store: Store) =>
  createEngine({ store, leaseClock: () => NOW, host: 'here', isProcessAlive: () => true });
const ids = (runs: ReadonlyArray<{ runId: string }>) => runs.map((run) => Number(run.runId));

describe('a page of runs', () => {
  it('lists the newest first, and its cursor walks every run once', async () => {
    const engine = engineOver(await store30());
    const first = await engine.runPage();
    expect(ids(first.runs)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    expect(first.next).toBeNull();
    const seen: number[] = [];
    let next: string | null | undefined;
    let pages = 0;
    do {
      const page = await engine.runPage({ limit: 7, ...(next === undefined || next === null ? {} : { before: next }) });
      seen.push(...ids(page.runs));
      next = page.next;
      pages++;
    } while (next !== null);
    expect(seen).toEqual(ids(first.runs));
    expect(pages).toBe(5);
    // A page that exactly ends the list has no next.
    expect((await engine.runPage({ limit: 30 })).next).toBeNull();
    expect((await engine.runPage({ limit: 29 })).next).toBe('00000002');
  });

  it('filters by mode, since and status as readers see it: interrupted and running both come from stored running', async () => {
    const engine = engineOver(await store30());
    expect(ids((await engine.runPage({ mode: 'replay:strict' })).runs)).toEqual([30, 25, 20, 15, 10, 5]);
    expect(ids((await engine.runPage({ since: '2026-03-04T10:00:27.000Z' })).runs)).toEqual([30, 29, 28, 27]);
    expect(ids((await engine.runPage({ status: 'running' })).runs)).toEqual([30, 24, 18, 12, 6]);
    expect(ids((await engine.runPage({ status: 'interrupted' })).runs)).toEqual([27, 21, 15, 9, 3]);
    expect((await engine.runPage({ status: 'interrupted' })).runs.every((run) => run.status === 'interrupted')).toBe(
      true,
    );
    // A filtered page fills up across the runs the filter drops, and its cursor goes on from there.
    const page = await engine.runPage({ status: 'interrupted', limit: 2 });
    expect([ids(page.runs), page.next]).toEqual([[27, 21], '00000021']);
    expect(ids((await engine.runPage({ status: 'interrupted', limit: 2, before: page.next! })).runs)).toEqual([15, 9]);
    expect(ids((await engine.runPage({ status: 'completed', mode: 'replay:strict' })).runs)).toEqual([25, 20, 10, 5]);
  });

  it('filters by until and scenario in every read it makes to fill a page', async () => {
    const store = await store30();
    const asked: Array<Parameters<Store['queryRuns']>[0]> = [];
    const engine = engineOver({
      ...store,
      queryRuns: async (query) => {
        asked.push(query);
        return await store.queryRuns(query);
      },
    });
    const until = '2026-03-04T10:00:22.000Z';
    expect(ids((await engine.runPage({ until })).runs)).toEqual(Array.from({ length: 21 }, (_, i) => 21 - i));
    // Interrupted runs are told apart from running ones after the read, so the page takes several reads.
    const page = await engine.runPage({ status: 'interrupted', until, scenario: 'scenarios/sample', limit: 3 });
    expect([ids(page.runs), page.next]).toEqual([[21, 15, 9], '00000009']);
    expect(asked.length).toBeGreaterThan(2);
    expect(asked.every((query) => query.until === until)).toBe(true);
    expect(asked.slice(1).every((query) => query.scenario === 'scenarios/sample')).toBe(true);
    expect((await engine.runPage({ scenario: 'scenarios/other' })).runs).toEqual([]);
  });

  it('refuses a cursor that names no run, and a page of no runs', async () => {
    const engine = engineOver(await store30());
    const codeOf = async (work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (error) {
        return isForkpointError(error) ? error.code : 'thrown';
      }
      return undefined;
    };
    expect(await codeOf(async () => await engine.runPage({ before: '99999999' }))).toBe('RUN_NOT_FOUND');
    expect(await codeOf(async () => await engine.runPage({ limit: 0 }))).toBe('USAGE');
  });

  it('reads only its page from the store, never every run', async () => {
    const store = await store30();
    const asked: number[] = [];
    const engine = engineOver({
      ...store,
      listRuns: () => {
        throw new Error('listed every run');
      },
      queryRuns: async (query) => {
        const runs = await store.queryRuns(query);
        asked.push(runs.length);
        return runs;
      },
    });
    expect(ids((await engine.runPage({ limit: 3 })).runs)).toEqual([30, 29, 28]);
    expect(asked).toEqual([4]);
  });
});
