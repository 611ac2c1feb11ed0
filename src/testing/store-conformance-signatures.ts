import { describe, expect, it } from 'vitest';
import { signatureOf } from '../signature/index.js';
import type { FailureSignature } from '../signature/index.js';
import type { RunFinish } from '../store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

const misread = signatureOf(
  [
    { kind: 'model', asks: ['ocr_document'], stop: 'tool_use' },
    { kind: 'tool', tool: 'ocr_document', output: 'a1b2c3d4e5f6', isError: false, label: 'confidence<0.5' },
    { kind: 'model', asks: [], stop: 'end_turn' },
  ],
  { status: 'failed', error: { code: 'VALIDATION_FAILED', step: 3 } },
);
const completed = signatureOf([{ kind: 'model', asks: [], stop: 'end_turn' }], { status: 'completed', error: null });

const ended = (signature?: FailureSignature, finishedAt = '2026-03-04T10:00:05.000Z'): RunFinish => ({
  status: signature?.ending.status === 'failed' ? 'failed' : 'completed',
  outcome: signature?.ending.status === 'failed' ? null : { ok: true },
  error: signature?.ending.status === 'failed' ? { code: 'VALIDATION_FAILED', message: 'negative', step: 3 } : null,
  finishedAt,
  ...(signature === undefined ? {} : { signature }),
});

/**
 * How a store keeps a run's failure signature: written with its ending (by
 * any of the three ways a run ends), none while it runs or once a resume
 * takes it up, kept when its steps are purged and when it is copied, and
 * listed by `listSignedRuns` by period and by digest, oldest first, without
 * the runs that have none. Registered by `describeStoreConformance`.
 */
export function describeSignatureConformance(suite: StoreSuite): void {
  describe('failure signatures', () => {
    it('holds none while a run runs, and the one its ending carries once it ends, however it ends', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
      expect((await store.getRun('aaaa0001'))?.signature).toBeNull();
      await store.commitStep('aaaa0001', SAMPLE_OWNER_TOKEN, sampleStep(1), [], ended(misread));
      expect((await store.getRun('aaaa0001'))?.signature).toEqual(misread);
      await store.createRun(sampleRun({ runId: 'aaaa0002' }), sampleStep(0, { checkpointFull: true }), []);
      await store.finishRun('aaaa0002', SAMPLE_OWNER_TOKEN, ended(completed));
      expect((await store.getRun('aaaa0002'))?.signature).toEqual(completed);
      await store.writeRun(
        sampleRun({ runId: 'aaaa0003', mode: 'replay:strict', owner: null, sourceRunId: 'aaaa0001' }),
        [sampleStep(0, { checkpointFull: true }), sampleStep(1, { provenance: 'recorded' })],
        [],
        ended(misread),
      );
      expect((await store.getRun('aaaa0003'))?.signature).toEqual(misread);
      await store.createRun(sampleRun({ runId: 'aaaa0004' }), sampleStep(0, { checkpointFull: true }), []);
      await store.finishRun('aaaa0004', SAMPLE_OWNER_TOKEN, ended());
      expect((await store.getRun('aaaa0004'))?.signature).toBeNull();
    });

    it('forgets it when a resume takes the run up, and keeps it when the run is purged or copied', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), [], ended(misread));
      const copy = await suite.fresh();
      const run = await store.getRun('0000abcd');
      if (run === undefined) throw new Error('the run was not stored');
      await copy.importRun(run, await store.readSteps('0000abcd'), []);
      expect((await copy.getRun('0000abcd'))?.signature).toEqual(misread);
      await store.purgeRuns([
        {
          runId: '0000abcd',
          purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' },
          redacted: { input: { claimId: 'aaaaa' }, error: null, override: null, findings: [] },
        },
      ]);
      expect((await store.getRun('0000abcd'))?.signature).toEqual(misread);
      expect((await store.listSignedRuns({})).map((signed) => signed.runId)).toEqual(['0000abcd']);

      await copy.createRun(sampleRun({ runId: 'bbbb0001' }), sampleStep(0, { checkpointFull: true }), []);
      await copy.finishRun('bbbb0001', SAMPLE_OWNER_TOKEN, {
        ...ended(misread),
        error: { code: 'PROVIDER_FAILED', message: 'down', step: 1 },
      });
      await copy.resumeRun({
        runId: 'bbbb0001',
        expected: { status: 'failed', ownerToken: null, leaseExpiresAt: null },
        owner: { pid: 77, host: 'other-host', token: 'owner-token-2', leaseExpiresAt: 1_900_000_100_000 },
        resume: {
          attempt: 2,
          fromStep: 1,
          at: '2026-03-04T10:01:00.000Z',
          after: 'PROVIDER_FAILED',
          sideEffects: { default: 'refuse', tools: {} },
        },
      });
      expect((await copy.getRun('bbbb0001'))?.signature).toBeNull();
      expect((await copy.listSignedRuns({})).map((signed) => signed.runId)).toEqual(['0000abcd']);
    });

    it('lists the signed runs of a period or of one digest, oldest first, with no payload', async () => {
      const store = await suite.fresh();
      const days = ['2026-03-02', '2026-03-01', '2026-03-03', '2026-03-02'];
      for (const [i, day] of days.entries()) {
        const runId = `cccc000${i}`;
        await store.createRun(
          sampleRun({ runId, createdAt: `${day}T09:00:00.000Z` }),
          sampleStep(0, { checkpointFull: true }),
          [],
        );
        await store.finishRun(runId, SAMPLE_OWNER_TOKEN, ended(i % 2 === 0 ? misread : completed));
      }
      await store.createRun(sampleRun({ runId: 'cccc0009' }), sampleStep(0, { checkpointFull: true }), []);
      const ids = async (query: Parameters<typeof store.listSignedRuns>[0]) =>
        (await store.listSignedRuns(query)).map((signed) => signed.runId);
      // Runs made the same instant keep the order they were made in.
      expect(await ids({})).toEqual(['cccc0001', 'cccc0000', 'cccc0003', 'cccc0002']);
      expect(await ids({ digest: misread.digest })).toEqual(['cccc0000', 'cccc0002']);
      expect(await ids({ since: '2026-03-02T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z' })).toEqual([
        'cccc0000',
        'cccc0003',
      ]);
      expect(await ids({ digest: completed.digest, since: '2026-03-02T00:00:00.000Z' })).toEqual(['cccc0003']);
      const [first] = await store.listSignedRuns({ digest: misread.digest });
      expect(first).toEqual({
        runId: 'cccc0000',
        mode: 'record',
        agentName: 'agent',
        build: 'baseline',
        codeHash: '0123456789abcdef',
        scenario: 'scenarios/sample',
        createdAt: '2026-03-02T09:00:00.000Z',
        status: 'failed',
        sourceRunId: null,
        parentRunId: null,
        signature: misread,
        usage: null,
      });
    });
  });
}
