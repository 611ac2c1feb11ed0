import { afterEach, describe, expect, it } from 'vitest';
import { isForkpointError } from '../errors/index.js';
import type { Store } from '../store/index.js';
import type { Finding } from '../vocabulary/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import { describeScaleConformance } from './store-scale-conformance.js';

/** How the conformance suite gets stores. */
export interface StoreFactory {
  /** A fresh, empty store. */
  open(): Store;
  /**
   * Closes `store` and opens the same data again, for implementations that
   * persist; omit it for purely in-memory ones.
   */
  reopen?(store: Store): Store;
  /**
   * Opens a second handle on the data `store` holds (another connection, as
   * another process would have), for implementations that several processes
   * share; omit it otherwise.
   */
  another?(store: Store): Store;
}

/**
 * The behaviour every {@link Store} implementation must have. Call it from a
 * test file of the implementation:
 *
 * @example
 * ```ts
 * describeStoreConformance('sqlite :memory:', { open: () => sqliteStore({ path: ':memory:' }) });
 * ```
 */
export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    const open: Store[] = [];
    const fresh = (): Store => {
      const store = factory.open();
      open.push(store);
      return store;
    };
    afterEach(() => {
      for (const store of open.splice(0)) {
        try {
          store.close();
        } catch {
          // already closed by the test
        }
      }
    });

    it('creates a run with its row 0 and reads every field back', () => {
      const store = fresh();
      store.createRun(sampleRun({ runId: 'ffff0000' }), sampleStep(0, { checkpointFull: true }), []);
      const run = sampleRun({
        parent: {
          runId: 'ffff0000',
          atStep: 3,
          override: { kind: 'tool-result', output: { a: 1 } },
          changes: [{ path: 'a', before: '0', after: '1' }],
        },
        sourceRunId: 'ffff0000',
        sideEffects: { default: 'refuse', tools: { refund: 'simulate' } },
      });
      store.createRun(run, sampleStep(0, { checkpointFull: true }), []);
      const read = store.getRun(run.runId);
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
      });
      expect(read?.input.note).toBe('half an emoji: \ud83d');
      expect(store.readSteps(run.runId)).toEqual([sampleStep(0, { checkpointFull: true })]);
    });

    it('refuses a run id that exists, with RUN_EXISTS, and writes nothing', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'a1', body: '"first"' }]);
      let caught: unknown;
      try {
        store.createRun(
          sampleRun({ build: 'other' }),
          sampleStep(0, { checkpointFull: true, checkpoint: '{"other":true}' }),
          [{ digest: 'b2', body: '"second"' }],
        );
      } catch (error) {
        caught = error;
      }
      expect(isForkpointError(caught, 'RUN_EXISTS')).toBe(true);
      expect(store.getRun('0000abcd')?.build).toBe('baseline');
      expect(store.readSteps('0000abcd')[0]?.checkpoint).toBe('{"step":0}');
      expect(store.readBlobs(['b2']).size).toBe(0);
    });

    it('commits steps in order and counts them on the run', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      for (let step = 1; step <= 6; step++)
        store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step), [
          { digest: `blob-${step}`, body: `{"n":${step}}` },
        ]);
      expect(store.getRun('0000abcd')?.stepCount).toBe(6);
      expect(store.readSteps('0000abcd').map((row) => row.step)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(store.readSteps('0000abcd', 2, 4)).toEqual([sampleStep(2), sampleStep(3), sampleStep(4)]);
    });

    it('writes a step and its blobs all or nothing', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      expect(() =>
        store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), [{ digest: 'orphan', body: '"x"' }]),
      ).toThrow();
      expect(store.readBlobs(['orphan']).size).toBe(0);
      expect(store.getRun('0000abcd')?.stepCount).toBe(1);
    });

    it('returns the checkpoint chain from the nearest full checkpoint', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      for (let step = 1; step <= 9; step++) store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step), []);
      expect(store.readCheckpointChain('0000abcd', 7).map((row) => row.step)).toEqual([4, 5, 6, 7]);
      expect(store.readCheckpointChain('0000abcd', 8).map((row) => row.step)).toEqual([8]);
      expect(store.readCheckpointChain('0000abcd', 3).map((row) => row.step)).toEqual([0, 1, 2, 3]);
      expect(store.readCheckpointChain('0000abcd', 12)).toEqual([]);
    });

    it('reads the messages rows appended over a range of steps as one JSON array', () => {
      const store = fresh();
      store.createRun(
        sampleRun(),
        sampleStep(0, { checkpointFull: true, message: '{"first":true}', messageDigest: 'd0' }),
        [],
      );
      for (let step = 1; step <= 7; step++) store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step), []);
      expect(store.readMessages('0000abcd', 0, 6)).toEqual({
        segments: [],
        json: '[{"first":true},{"role":"user","n":3},{"role":"user","n":6}]',
        digests: ['d0', 'digest-3', 'digest-6'],
      });
      expect(store.readMessages('0000abcd', 1, 7)).toEqual({
        segments: [],
        json: '[{"role":"user","n":3},{"role":"user","n":6}]',
        digests: ['digest-3', 'digest-6'],
      });
      expect(store.readMessages('0000abcd', 4, 5)).toEqual({ segments: [], json: '[]', digests: [] });
    });

    it("reads a range that starts at the run's first row as its conversation segments and the messages after the last", () => {
      const store = fresh();
      // Full rows every 4 steps carry the segment of the messages since the previous one (steps 3, 6, 9 hold messages).
      const segment = (step: number) => ({ digest: `segment-${step}`, body: `[{"segment":${step}}]` });
      const withSegment = (step: number) =>
        sampleStep(step, step % 4 === 0 ? { messageSegment: segment(step).digest } : {});
      store.createRun(
        sampleRun(),
        { ...withSegment(0), checkpointFull: true, message: '{"first":true}', messageDigest: 'd0' },
        [segment(0)],
      );
      for (let step = 1; step <= 9; step++)
        store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, withSegment(step), step % 4 === 0 ? [segment(step)] : []);
      expect(store.readSteps('0000abcd', 4, 4)[0]!.messageSegment).toBe('segment-4');
      expect(store.readMessages('0000abcd', 0, 7)).toEqual({
        segments: ['[{"segment":0}]', '[{"segment":4}]'],
        json: '[{"role":"user","n":6}]',
        digests: ['digest-6'],
      });
      expect(store.readMessages('0000abcd', 0, 9)).toEqual({
        segments: ['[{"segment":0}]', '[{"segment":4}]', '[{"segment":8}]'],
        json: '[{"role":"user","n":9}]',
        digests: ['digest-9'],
      });
      // Step 2 is not the run's first row: segment 4 also covers steps 1 and 3, so the range comes row by row.
      expect(store.readMessages('0000abcd', 2, 7)).toEqual({
        segments: [],
        json: '[{"role":"user","n":3},{"role":"user","n":6}]',
        digests: ['digest-3', 'digest-6'],
      });
      // Nor does a range from a later full checkpoint: segment 8 covers what came since segment 4, step 6 included.
      expect(store.readMessages('0000abcd', 8, 9)).toEqual({
        segments: [],
        json: '[{"role":"user","n":9}]',
        digests: ['digest-9'],
      });
    });

    it('stores each blob once and returns bodies byte for byte', () => {
      const store = fresh();
      const body = JSON.stringify({ text: 'naïve 🦊 \ud83d tail', n: 1.5 });
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'same', body }]);
      store.createRun(sampleRun({ runId: '0000abce' }), sampleStep(0, { checkpointFull: true }), [
        { digest: 'same', body },
      ]);
      const read = store.readBlobs(['same', 'unknown']);
      expect([...read.keys()]).toEqual(['same']);
      expect(read.get('same')).toBe(body);
      expect(JSON.parse(read.get('same')!).text).toBe('naïve 🦊 \ud83d tail');
    });

    it('finishes a run once, and refuses steps after it', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      const finish = {
        status: 'failed' as const,
        outcome: null,
        error: { code: 'VALIDATION_FAILED' as const, message: 'payout -234 is negative', step: 1 },
        finishedAt: '2026-03-04T10:00:05.000Z',
      };
      store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, finish);
      const read = store.getRun('0000abcd');
      expect(read).toMatchObject({
        status: 'failed',
        error: finish.error,
        finishedAt: finish.finishedAt,
        outcome: null,
        stepCount: 1,
      });
      expect(() => store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, { ...finish, status: 'completed' })).toThrow();
      expect(() => store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [])).toThrow();
      expect(store.readSteps('0000abcd').map((row) => row.step)).toEqual([0, 1]);
    });

    it("commits a last step and the run's ending together, and refuses steps after it", () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      const finish = {
        status: 'completed' as const,
        outcome: { payout: 2050 },
        error: null,
        finishedAt: '2026-03-04T10:00:06.000Z',
      };
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [{ digest: 'last', body: '"last"' }], finish);
      expect(store.getRun('0000abcd')).toMatchObject({
        status: 'completed',
        outcome: finish.outcome,
        error: null,
        finishedAt: finish.finishedAt,
        stepCount: 2,
      });
      expect(store.readBlobs(['last']).get('last')).toBe('"last"');
      expect(() =>
        store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(3), [{ digest: 'late', body: '"late"' }], finish),
      ).toThrow();
      expect(() => store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, finish)).toThrow();
      expect(store.readSteps('0000abcd').map((row) => row.step)).toEqual([0, 1, 2]);
      expect(store.readBlobs(['late']).size).toBe(0);
    });

    it('writes a whole run in one transaction, with its findings', () => {
      const store = fresh();
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
      store.writeRun(
        sampleRun({ mode: 'replay:strict', sourceRunId: 'elsewhere', sourceCassette: 'cassettes/a.json', owner: null }),
        [sampleStep(0, { checkpointFull: true }), sampleStep(1), sampleStep(2)],
        [{ digest: 'w1', body: '"w"' }],
        { status: 'completed', outcome: { ok: true }, error: null, finishedAt: 'done', findings },
      );
      expect(store.getRun('0000abcd')).toMatchObject({
        mode: 'replay:strict',
        status: 'completed',
        stepCount: 2,
        findings,
        sourceRunId: 'elsewhere',
        sourceCassette: 'cassettes/a.json',
      });
      expect(store.readSteps('0000abcd')).toHaveLength(3);
      expect(store.readBlobs(['w1']).get('w1')).toBe('"w"');
    });

    it('writes nothing of a whole run whose id exists', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      let caught: unknown;
      try {
        store.writeRun(
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
      expect(store.readSteps('0000abcd')).toHaveLength(1);
      expect(store.readBlobs(['w2']).size).toBe(0);
    });

    it('keeps a completed run outcome', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
        status: 'completed',
        outcome: { decision: 'approve', payout: 1795 },
        error: null,
        finishedAt: 'x',
      });
      expect(store.getRun('0000abcd')?.outcome).toEqual({ decision: 'approve', payout: 1795 });
    });

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

      it("removes a purged run's rows and the blobs only it used, and redacts its summary", () => {
        const store = fresh();
        store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
        store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
        store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(2, '$tree') }), [
          blob(2, `{"inner":${ref(3)}}`),
          blob(3),
        ]);
        store.finishRun('aaaa0001', SAMPLE_OWNER_TOKEN, {
          status: 'completed',
          outcome: { decision: 'approve' },
          error: null,
          finishedAt: '2026-03-04T10:01:00.000Z',
        });
        const counts = store.purgeRuns([purge('aaaa0001')]);
        expect(counts).toEqual({ steps: 3, blobs: 3 });
        expect(store.readSteps('aaaa0001')).toEqual([]);
        expect(store.readBlobs([digest(1), digest(2), digest(3)]).size).toBe(0);
        const run = store.getRun('aaaa0001');
        expect(run?.purge).toEqual({ at: '2026-03-08T00:00:00.000Z', reason: 'expired' });
        expect(run?.input).toEqual({ claimId: 'aaaaa' });
        expect(run?.outcome).toEqual({ decision: 'approve' });
        expect(run?.stepCount).toBe(2);
      });

      it('keeps every blob another run still refers to, directly or through a tree', () => {
        const store = fresh();
        store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
        store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
        store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(4) }), [blob(4)]);
        store.createRun(sampleRun({ runId: 'aaaa0002' }), sampleStep(0, { checkpointFull: true }), []);
        store.commitStep('aaaa0002', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), []);
        store.commitStep('aaaa0002', SAMPLE_OWNER_TOKEN, sampleStep(2, { response: ref(5, '$tree') }), [
          blob(5, `[${ref(4)}]`),
        ]);
        expect(store.purgeRuns([purge('aaaa0001')])).toEqual({ steps: 3, blobs: 0 });
        expect([...store.readBlobs([digest(1), digest(4), digest(5)]).keys()].sort()).toEqual([
          digest(1),
          digest(4),
          digest(5),
        ]);
        store.purgeRuns([purge('aaaa0002')]);
        expect(store.readBlobs([digest(1), digest(4), digest(5)]).size).toBe(0);
      });

      it('purges all or nothing: an unknown or purged run fails the whole purge', () => {
        const store = fresh();
        store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
        store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
        expect(() => store.purgeRuns([purge('aaaa0001'), purge('ffffffff')])).toThrow();
        expect(store.readSteps('aaaa0001')).toHaveLength(2);
        expect(store.getRun('aaaa0001')?.purge).toBeNull();
        store.purgeRuns([purge('aaaa0001')]);
        expect(() => store.purgeRuns([purge('aaaa0001')])).toThrow();
      });

      it("stores, replaces, reads and drops a run's structural cassette", () => {
        const store = fresh();
        store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
        expect(store.readStructural('aaaa0001')).toBeUndefined();
        store.saveStructural('aaaa0001', '{"v":1}');
        store.saveStructural('aaaa0001', '{"v":2}');
        expect(store.readStructural('aaaa0001')).toBe('{"v":2}');
        expect(store.dropStructural(['aaaa0001', 'ffffffff'])).toBe(1);
        expect(store.readStructural('aaaa0001')).toBeUndefined();
      });

      it('keeps what it holds through a compaction', () => {
        const store = fresh();
        store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
        store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1, { response: ref(1) }), [blob(1)]);
        store.compact();
        expect(store.readSteps('aaaa0001')).toHaveLength(2);
        expect(store.readBlobs([digest(1)]).get(digest(1))).toBe('"body 1"');
      });
    });

    describe('at scale', () => describeScaleConformance(fresh));

    it('lists runs oldest first and answers undefined for unknown ids', () => {
      const store = fresh();
      store.createRun(
        sampleRun({ runId: '00000002', createdAt: '2026-03-05T00:00:00.000Z' }),
        sampleStep(0, { checkpointFull: true }),
        [],
      );
      store.createRun(
        sampleRun({ runId: '00000001', createdAt: '2026-03-04T00:00:00.000Z' }),
        sampleStep(0, { checkpointFull: true }),
        [],
      );
      expect(store.listRuns().map((run) => run.runId)).toEqual(['00000001', '00000002']);
      expect(store.getRun('99999999')).toBeUndefined();
      expect(store.readSteps('99999999')).toEqual([]);
    });

    it('reads inside read() and returns what the work returns; an error leaves the store usable', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'r1', body: '"r"' }]);
      expect(store.read(() => [store.getRun('0000abcd')?.status, store.readBlobs(['r1']).get('r1')])).toEqual([
        'running',
        '"r"',
      ]);
      expect(() =>
        store.read(() => {
          throw new Error('work failed');
        }),
      ).toThrow('work failed');
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      expect(store.read(() => store.read(() => store.readSteps('0000abcd').length))).toBe(2);
    });

    if (factory.another !== undefined) {
      const another = factory.another;
      it('shows read() one state: a step committed elsewhere meanwhile appears only after it', () => {
        const store = fresh();
        store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
        const writer = another(store);
        open.push(writer);
        const seen = store.read(() => {
          const before = store.readSteps('0000abcd').length;
          writer.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
          return [before, store.readSteps('0000abcd').length, store.readCheckpointChain('0000abcd', 1).length];
        });
        expect(seen).toEqual([1, 1, 0]);
        expect(store.readSteps('0000abcd')).toHaveLength(2);
      });
    }

    it("writes a step only for its run's owner: another token gets LEASE_LOST and writes nothing", () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      let caught: unknown;
      try {
        store.commitStep('0000abcd', 'someone-else', sampleStep(1), [{ digest: 'stray', body: '"stray"' }]);
      } catch (error) {
        caught = error;
      }
      expect(isForkpointError(caught, 'LEASE_LOST')).toBe(true);
      expect(store.readSteps('0000abcd')).toHaveLength(1);
      expect(store.readBlobs(['stray']).size).toBe(0);
      expect(() =>
        store.finishRun('0000abcd', 'someone-else', {
          status: 'completed',
          outcome: null,
          error: null,
          finishedAt: 'x',
        }),
      ).toThrow();
      expect(store.getRun('0000abcd')?.status).toBe('running');
    });

    it('renews the lease of a running run for its owner only, and drops the owner when the run ends', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      expect(store.renewLease('0000abcd', SAMPLE_OWNER_TOKEN, 1_900_000_030_000)).toBe(true);
      expect(store.getRun('0000abcd')?.owner).toEqual({
        pid: 4242,
        host: 'test-host',
        token: SAMPLE_OWNER_TOKEN,
        leaseExpiresAt: 1_900_000_030_000,
      });
      expect(store.renewLease('0000abcd', 'someone-else', 1_900_000_060_000)).toBe(false);
      expect(store.getRun('0000abcd')?.owner?.leaseExpiresAt).toBe(1_900_000_030_000);
      store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
        status: 'completed',
        outcome: { ok: true },
        error: null,
        finishedAt: 'x',
      });
      expect(store.getRun('0000abcd')?.owner).toBeNull();
      expect(store.renewLease('0000abcd', SAMPLE_OWNER_TOKEN, 1_900_000_090_000)).toBe(false);
    });

    it("keeps a step's side-effect mark", () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2, { sideEffect: true }), []);
      expect(store.readSteps('0000abcd').map((row) => row.sideEffect)).toEqual([false, false, true]);
    });

    const resumeOf = (attempt: number, fromStep: number) => ({
      attempt,
      fromStep,
      at: '2026-03-04T11:00:00.000Z',
      after: 'interrupted',
      sideEffects: { default: 'refuse' as const, tools: {} },
    });
    const newOwner = { pid: 77, host: 'other-host', token: 'owner-token-2', leaseExpiresAt: 1_900_000_100_000 };

    it('hands an interrupted run to a resumer in one step, and fences its old owner out', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      store.resumeRun({
        runId: '0000abcd',
        expected: { status: 'running', ownerToken: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1_900_000_000_000 },
        owner: newOwner,
        resume: resumeOf(2, 2),
      });
      const read = store.getRun('0000abcd');
      // The run's own policy stays its first attempt's; the resume carries its own.
      expect(read).toMatchObject({
        status: 'running',
        owner: newOwner,
        stepCount: 1,
        resumes: [resumeOf(2, 2)],
        sideEffects: null,
      });
      expect(() => store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [])).toThrow(
        /resumed by another process/,
      );
      store.commitStep('0000abcd', newOwner.token, sampleStep(2), []);
      store.finishRun('0000abcd', newOwner.token, {
        status: 'completed',
        outcome: { ok: true },
        error: null,
        finishedAt: 'y',
      });
      expect(store.getRun('0000abcd')).toMatchObject({
        status: 'completed',
        stepCount: 2,
        owner: null,
        resumes: [resumeOf(2, 2)],
      });
    });

    it('lets only one of two resumers of the same run win, and the loser writes nothing', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      const expected = {
        status: 'running' as const,
        ownerToken: SAMPLE_OWNER_TOKEN,
        leaseExpiresAt: 1_900_000_000_000,
      };
      store.resumeRun({ runId: '0000abcd', expected, owner: newOwner, resume: resumeOf(2, 1) });
      let caught: unknown;
      try {
        store.resumeRun({
          runId: '0000abcd',
          expected,
          owner: { ...newOwner, token: 'owner-token-3' },
          resume: resumeOf(2, 1),
        });
      } catch (error) {
        caught = error;
      }
      expect(isForkpointError(caught, 'RESUME_REFUSED')).toBe(true);
      expect(store.getRun('0000abcd')).toMatchObject({ owner: newOwner, resumes: [resumeOf(2, 1)] });
    });

    it('reopens a failed run for a resume: running again, without its ending, its steps kept', () => {
      const store = fresh();
      store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      store.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, {
        status: 'failed',
        outcome: null,
        error: { code: 'PROVIDER_FAILED', message: 'down', step: 2 },
        finishedAt: 'x',
      });
      store.resumeRun({
        runId: '0000abcd',
        expected: { status: 'failed', ownerToken: null, leaseExpiresAt: null },
        owner: newOwner,
        resume: { ...resumeOf(2, 2), after: 'PROVIDER_FAILED' },
      });
      expect(store.getRun('0000abcd')).toMatchObject({
        status: 'running',
        error: null,
        finishedAt: null,
        stepCount: 1,
        owner: newOwner,
      });
      store.commitStep('0000abcd', newOwner.token, sampleStep(2), [], {
        status: 'completed',
        outcome: { ok: true },
        error: null,
        finishedAt: 'z',
      });
      expect(store.getRun('0000abcd')).toMatchObject({ status: 'completed', stepCount: 2 });
      expect(store.readSteps('0000abcd').map((row) => row.step)).toEqual([0, 1, 2]);
    });

    if (factory.reopen !== undefined) {
      const reopen = factory.reopen;
      it('keeps everything committed across a reopen', () => {
        const store = factory.open();
        store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'kept', body: '"kept"' }]);
        store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
        const again = reopen(store);
        open.push(again);
        expect(again.getRun('0000abcd')?.stepCount).toBe(1);
        expect(again.readSteps('0000abcd')).toHaveLength(2);
        expect(again.readBlobs(['kept']).get('kept')).toBe('"kept"');
      });
    }
  });
}
