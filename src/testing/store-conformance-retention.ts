import { describe, expect, it } from 'vitest';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/** How a store removes what retention says: purges of full tiers, structural records, compaction. Registered by `describeStoreConformance`. */
export function describeRetentionConformance(suite: StoreSuite): void {
  describe('retention', () => {
    const digest = (n: number): string => n.toString(16).padStart(32, '0');
    const ref = (n: number, key = '$blob'): string => `{"${key}":"${digest(n)}"}`;
    const blob = (n: number, body = `"body ${n}"`) => ({ digest: digest(n), body });
    const redacted = { input: { claimId: 'aaaaa' }, error: null, override: null, findings: [] };
    const purge = (runId: string) => ({
      runId,
      purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' as const },
      redacted,
    });

    it("removes a purged run's rows and the blobs only it used, and redacts its summary", async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(2, '$tree') }), [
        blob(2, `{"inner":${ref(3)}}`),
        blob(3),
      ]);
      await store.finishRun('aaaa0001', SAMPLE_OWNER_TOKEN, {
        status: 'completed',
        outcome: { decision: 'approve' },
        error: null,
        finishedAt: '2026-03-04T10:01:00.000Z',
      });
      const counts = await store.purgeRuns([purge('aaaa0001')]);
      expect(counts).toEqual({ steps: 3, blobs: 3 });
      expect(await store.readSteps('aaaa0001')).toEqual([]);
      expect((await store.readBlobs([digest(1), digest(2), digest(3)])).size).toBe(0);
      const run = await store.getRun('aaaa0001');
      expect(run?.purge).toEqual({ at: '2026-03-08T00:00:00.000Z', reason: 'expired' });
      expect(run?.input).toEqual({ claimId: 'aaaaa' });
      expect(run?.outcome).toEqual({ decision: 'approve' });
      expect(run?.stepCount).toBe(2);
    });

    it('keeps every blob another run still refers to, directly or through a tree', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(4) }), [blob(4)]);
      await store.createRun(sampleRun({ runId: 'aaaa0002' }), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('aaaa0002', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), []);
      await store.commitStep('aaaa0002', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(5, '$tree') }), [
        blob(5, `[${ref(4)}]`),
      ]);
      expect(await store.purgeRuns([purge('aaaa0001')])).toEqual({ steps: 3, blobs: 0 });
      expect([...(await store.readBlobs([digest(1), digest(4), digest(5)])).keys()].sort()).toEqual([
        digest(1),
        digest(4),
        digest(5),
      ]);
      await store.purgeRuns([purge('aaaa0002')]);
      expect((await store.readBlobs([digest(1), digest(4), digest(5)])).size).toBe(0);
    });

    it('purges all or nothing: an unknown or purged run fails the whole purge', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
      await expect(store.purgeRuns([purge('aaaa0001'), purge('ffffffff')])).rejects.toThrow();
      expect(await store.readSteps('aaaa0001')).toHaveLength(2);
      expect((await store.getRun('aaaa0001'))?.purge).toBeNull();
      await store.purgeRuns([purge('aaaa0001')]);
      await expect(store.purgeRuns([purge('aaaa0001')])).rejects.toThrow();
    });

    it("stores, replaces, reads and drops a run's structural cassette", async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      expect(await store.readStructural('aaaa0001')).toBeUndefined();
      await store.saveStructural('aaaa0001', '{"v":1}');
      await store.saveStructural('aaaa0001', '{"v":2}');
      expect(await store.readStructural('aaaa0001')).toBe('{"v":2}');
      expect(await store.dropStructural(['aaaa0001', 'ffffffff'])).toBe(1);
      expect(await store.readStructural('aaaa0001')).toBeUndefined();
    });

    it('keeps what it holds through a compaction', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
      await store.compact();
      expect(await store.readSteps('aaaa0001')).toHaveLength(2);
      expect((await store.readBlobs([digest(1)])).get(digest(1))).toBe('"body 1"');
    });
  });
}
