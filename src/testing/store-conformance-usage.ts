import { describe, expect, it } from 'vitest';
import type { UsageTotal } from '../pricing/index.js';
import type { RunFinish } from '../store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

const live: UsageTotal = {
  model: 'claude-sonnet-4-5',
  provenance: 'live',
  steps: 2,
  input: 1200,
  output: 340,
  cacheRead: 8000,
  cacheWrite: 0,
  reasoning: 120,
};
const recorded: UsageTotal = { ...live, model: 'gpt-4.1', provenance: 'recorded', steps: 1, cacheRead: 0 };

const ended = (usage?: readonly UsageTotal[]): RunFinish => ({
  status: 'completed',
  outcome: { ok: true },
  error: null,
  finishedAt: '2026-03-04T10:00:05.000Z',
  ...(usage === undefined ? {} : { usage }),
});

/**
 * How a store keeps a run's token totals: written with its ending (by any of
 * the three ways a run ends), read back as written, unknown (null) while it
 * runs or once a resume takes it up again, and kept when its steps are
 * purged. Registered by `describeStoreConformance`.
 */
export function describeUsageConformance(suite: StoreSuite): void {
  describe('token totals', () => {
    it('holds none while a run runs, and those its ending carries once it ends', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      expect((await store.getRun('0000abcd'))?.usage).toBeNull();
      await store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, ended([live, recorded]));
      expect((await store.getRun('0000abcd'))?.usage).toEqual([live, recorded]);
    });

    it('stores them with a last step, with a whole run, and none for an ending that carries none', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1), [], ended([live]));
      expect((await store.getRun('aaaa0001'))?.usage).toEqual([live]);
      await store.writeRun(
        sampleRun({ runId: 'aaaa0002', mode: 'replay:strict', owner: null }),
        [sampleStep(0, { checkpointFull: true }), sampleStep(1, { provenance: 'recorded' })],
        [],
        ended([recorded]),
      );
      expect((await store.getRun('aaaa0002'))?.usage).toEqual([recorded]);
      await store.createRun(sampleRun({ runId: 'aaaa0003' }), sampleStep(0, { checkpointFull: true }), []);
      await store.finishRun('aaaa0003', SAMPLE_OWNER_TOKEN, ended());
      expect((await store.getRun('aaaa0003'))?.usage).toBeNull();
      await store.createRun(sampleRun({ runId: 'aaaa0004' }), sampleStep(0, { checkpointFull: true }), []);
      await store.finishRun('aaaa0004', SAMPLE_OWNER_TOKEN, ended([]));
      expect((await store.getRun('aaaa0004'))?.usage).toEqual([]);
    });

    it('forgets them when a resume takes the run up (a resumed attempt that dies leaves them unknown), and stores the new ending', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      await store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
        ...ended([live]),
        status: 'failed',
        outcome: null,
        error: { code: 'PROVIDER_FAILED', message: 'down', step: 2 },
      });
      const owner = { pid: 77, host: 'other-host', token: 'owner-token-2', leaseExpiresAt: 1_900_000_100_000 };
      await store.resumeRun({
        runId: '0000abcd',
        expected: { status: 'failed', ownerToken: null, leaseExpiresAt: null },
        owner,
        resume: {
          attempt: 2,
          fromStep: 2,
          at: '2026-03-04T10:01:00.000Z',
          after: 'PROVIDER_FAILED',
          sideEffects: { default: 'refuse', tools: {} },
        },
      });
      expect((await store.getRun('0000abcd'))?.usage).toBeNull();
      const more = { ...live, steps: 3, input: 2000 };
      await store.commitStep('0000abcd', owner.token, sampleStep(2), [], ended([more]));
      expect((await store.getRun('0000abcd'))?.usage).toEqual([more]);
    });

    it('keeps them when the run is purged: a listing still prices it', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), [], ended([live]));
      await store.purgeRuns([
        {
          runId: '0000abcd',
          purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' },
          redacted: { input: { claimId: 'aaaaa' }, error: null, override: null, findings: [] },
        },
      ]);
      expect(await store.readSteps('0000abcd')).toEqual([]);
      expect((await store.getRun('0000abcd'))?.usage).toEqual([live]);
    });
  });
}
