import { describe, expect, it } from 'vitest';
import { sealingKeyFor } from '../cassette/index.js';
import { isForkpointError } from '../errors/index.js';
import type { RunRecord, StepRecord } from '../store/index.js';
import { startedRunRecord } from '../store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

const digest = (n: number): string => n.toString(16).padStart(32, '0');
const ref = (n: number, key = '$blob'): string => `{"${key}":"${digest(n)}"}`;
const blob = (n: number, body = `"body ${n}"`) => ({ digest: digest(n), body });

/** A finished run as another store would hand it over: every field set, none at its default. */
function copiedRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    ...startedRunRecord(sampleRun({ runId: 'c0c0c0c0c0c0', owner: null })),
    status: 'failed',
    outcome: null,
    error: { code: 'VALIDATION_FAILED', message: 'payout -234 is negative', step: 3 },
    findings: [
      {
        classification: 'dropped-call',
        actualHash: null,
        step: 4,
        kind: 'model',
        index: 2,
        recordedHashes: ['00000000000000a1'],
        changed: [],
        diff: [],
        message: 'model#2 (step 4): recorded, never asked for',
      },
    ],
    finishedAt: '2026-03-04T10:02:00.000Z',
    stepCount: 3,
    resumes: [
      {
        attempt: 2,
        fromStep: 2,
        at: '2026-03-04T10:01:30.000Z',
        after: 'interrupted',
        sideEffects: { default: 'refuse', tools: {} },
      },
    ],
    sideEffects: { default: 'refuse', tools: { estimate_repair: 'simulate' } },
    usage: [
      {
        model: 'claude-opus-5',
        provenance: 'live',
        steps: 2,
        input: 10,
        output: 5,
        cacheRead: 0,
        cacheWrite: 0,
        reasoning: 0,
      },
    ],
    ...overrides,
  };
}

// Rows 0..3, step 2's response a tree over blob 3, step 3's response blob 4.
const copiedRows = (): StepRecord[] => [
  sampleStep(0, { checkpointFull: true }),
  sampleStep(1, { response: ref(1) }),
  sampleStep(2, { response: ref(2, '$tree') }),
  sampleStep(3, { response: ref(4) }),
];
const copiedBlobs = () => [blob(1), blob(2, `{"inner":${ref(3)}}`), blob(3), blob(4, '"naïve 🦊 \\ud83d"')];

/** How a store writes a run copied from another (`importRun`): exactly as given, whole or not at all. Registered by `describeStoreConformance`. */
export function describeImportConformance(suite: StoreSuite): void {
  describe('importing a copied run', () => {
    it('keeps the record, rows, blobs and structural cassette exactly as given', async () => {
      const store = await suite.fresh();
      const run = copiedRun();
      await store.importRun(run, copiedRows(), copiedBlobs(), '{"structural":true}');
      expect(await store.getRun(run.runId)).toEqual(run);
      expect(await store.readSteps(run.runId)).toEqual(copiedRows());
      const bodies = await store.readBlobs(copiedBlobs().map((each) => each.digest));
      expect(Object.fromEntries(bodies)).toEqual(
        Object.fromEntries(copiedBlobs().map((each) => [each.digest, each.body])),
      );
      expect(await store.readStructural(run.runId)).toBe('{"structural":true}');
      expect(await store.expiredStructural('2026-06-02T10:00:00.000Z')).toEqual([run.runId]);
      expect((await store.listRuns()).map((each) => each.runId)).toEqual([run.runId]);
    });

    it("makes the store's own export key for an unpurged full tier's day, and none for a purged run", async () => {
      const store = await suite.fresh();
      const full = copiedRun({ expiresAt: '2026-03-07T10:00:00.000Z' });
      const purged = copiedRun({
        runId: 'c0c0c0c0c0c1',
        expiresAt: '2026-03-09T10:00:00.000Z',
        purge: { at: '2026-03-10T00:00:00.000Z', reason: 'expired' },
        stepCount: 9,
      });
      await store.importRun(full, copiedRows(), copiedBlobs());
      await store.importRun(purged, [], [], '{"shape":1}');
      expect((await store.exportKey(sealingKeyFor('2026-03-07T10:00:00.000Z').id))?.secret).toHaveLength(32);
      expect(await store.exportKey(sealingKeyFor('2026-03-09T10:00:00.000Z').id)).toBeUndefined();
      // A purged run is its summary and its structural record: its step count stays what it was.
      expect(await store.getRun(purged.runId)).toEqual(purged);
      expect(await store.readSteps(purged.runId)).toEqual([]);
      expect(await store.readStructural(purged.runId)).toBe('{"shape":1}');
    });

    it('refuses a taken id with RUN_EXISTS and writes nothing of the refused run', async () => {
      const store = await suite.fresh();
      await store.importRun(copiedRun(), copiedRows(), copiedBlobs());
      const other = copiedRun({ build: 'patched' });
      const caught = await store.importRun(other, [sampleStep(0, { response: ref(9) })], [blob(9)], '{}').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isForkpointError(caught, 'RUN_EXISTS')).toBe(true);
      expect((await store.getRun(other.runId))?.build).toBe('baseline');
      expect((await store.readBlobs([digest(9)])).size).toBe(0);
      expect(await store.readStructural(other.runId)).toBeUndefined();
    });

    it('registers what imported rows reach, so that purging one run keeps the blobs another still uses', async () => {
      const store = await suite.fresh();
      await store.importRun(copiedRun({ runId: 'c0c0c0c0c0c1' }), copiedRows(), copiedBlobs());
      // The second run reaches blob 3 through the tree blob 2 it shares, and brings them again, as copy does.
      await store.importRun(
        copiedRun({ runId: 'c0c0c0c0c0c2' }),
        [sampleStep(0, { checkpointFull: true, response: ref(2, '$tree') })],
        [blob(2, `{"inner":${ref(3)}}`), blob(3)],
      );
      const redacted = { input: {}, error: null, override: null, findings: [] };
      const purge = (runId: string) => ({
        runId,
        purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' as const },
        redacted,
      });
      await store.purgeRuns([purge('c0c0c0c0c0c1')]);
      expect([...(await store.readBlobs([digest(1), digest(2), digest(3), digest(4)])).keys()].sort()).toEqual([
        digest(2),
        digest(3),
      ]);
      await store.purgeRuns([purge('c0c0c0c0c0c2')]);
      expect((await store.readBlobs([digest(2), digest(3)])).size).toBe(0);
    });

    it('keeps the owner of a running run, which reads as running at its last row and can be resumed', async () => {
      const store = await suite.fresh();
      const owner = { pid: 4242, host: 'test-host', token: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1_000 };
      const running = { ...startedRunRecord(sampleRun({ runId: 'c0c0c0c0c0c3', owner })), stepCount: 3 };
      await store.importRun(running, copiedRows(), copiedBlobs());
      expect(await store.getRun(running.runId)).toEqual(running);
      await store.resumeRun({
        runId: running.runId,
        expected: { status: 'running', ownerToken: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1_000 },
        owner: { pid: 7, host: 'test-host', token: 'owner-token-2', leaseExpiresAt: 2_000 },
        resume: {
          attempt: 2,
          fromStep: 4,
          at: '2026-03-05T00:00:00.000Z',
          after: 'interrupted',
          sideEffects: { default: 'refuse', tools: {} },
        },
      });
      await store.commitStep(running.runId, 'owner-token-2', sampleStep(4), []);
      expect((await store.getRun(running.runId))?.stepCount).toBe(4);
    });
  });
}
