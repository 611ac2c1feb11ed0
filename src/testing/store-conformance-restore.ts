import { expect, it } from 'vitest';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

// Digests as the payload encoder makes them (32 hex digits), so that stored texts refer to them.
const digest = (n: number): string => n.toString(16).padStart(32, '0');
const blobRef = (n: number): string => `{"$blob":"${digest(n)}"}`;
const treeRef = (n: number): string => `{"$tree":"${digest(n)}"}`;

/** The reads a restore makes: a run's lineage, and a checkpoint's rows with every blob they reach. Registered by `describeStoreConformance`. */
export function describeRestoreConformance(suite: StoreSuite): void {
  it('reads a run and its ancestors, nearest first, and nothing for an unknown run', async () => {
    const store = await suite.fresh();
    const fork = (runId: string, parent: string, atStep: number) =>
      sampleRun({ runId, mode: 'fork', parent: { runId: parent, atStep, override: { n: atStep }, changes: null } });
    await store.createRun(sampleRun({ runId: 'root0001' }), sampleStep(0, { checkpointFull: true }), []);
    await store.createRun(sampleRun({ runId: 'other001' }), sampleStep(0, { checkpointFull: true }), []);
    await store.createRun(fork('fork0001', 'root0001', 4), null, []);
    await store.createRun(fork('fork0002', 'fork0001', 6), null, []);
    const ids = async (runId: string) => (await store.readLineage(runId)).map((run) => run.runId);
    expect(await ids('fork0002')).toEqual(['fork0002', 'fork0001', 'root0001']);
    expect(await ids('fork0001')).toEqual(['fork0001', 'root0001']);
    expect(await ids('root0001')).toEqual(['root0001']);
    expect(await ids('missing1')).toEqual([]);
    const [nearest] = await store.readLineage('fork0002');
    expect(nearest).toEqual(await store.getRun('fork0002'));
  });

  it("reads a checkpoint's chain, its message logs and exactly the blobs they reach, through $tree blobs", async () => {
    const store = await suite.fresh();
    const blobs = [
      { digest: digest(1), body: '{"plain":1}' },
      // A tree refers further, two levels down; blob 5 is reached by nothing the restore reads.
      { digest: digest(2), body: `{"inner":${treeRef(3)}}` },
      { digest: digest(3), body: `{"leaf":${blobRef(4)}}` },
      { digest: digest(4), body: '{"plain":4}' },
      { digest: digest(5), body: '{"plain":5}' },
      { digest: digest(6), body: '{"message":6}' },
    ];
    await store.createRun(
      sampleRun(),
      sampleStep(0, { checkpointFull: true, message: '{"first":true}', messageDigest: 'd0' }),
      blobs,
    );
    for (let step = 1; step <= 6; step++) {
      const overrides =
        step === 4
          ? { checkpoint: `{"state":${treeRef(2)},"small":${blobRef(1)}}`, response: blobRef(5) }
          : step === 6
            ? { message: `{"content":${blobRef(6)}}`, messageDigest: 'd6' }
            : {};
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step, overrides), []);
    }
    const request = {
      chain: { runId: '0000abcd', step: 6 },
      logs: [
        { runId: '0000abcd', from: 0, to: 3 },
        { runId: '0000abcd', from: 4, to: 6 },
      ],
    };
    const read = await store.readRestore(request);
    expect(read.chain).toEqual(await store.readCheckpointChain('0000abcd', 6));
    expect(read.logs).toEqual([await store.readMessages('0000abcd', 0, 3), await store.readMessages('0000abcd', 4, 6)]);
    expect(new Map(read.blobs)).toEqual(
      new Map([1, 2, 3, 4, 6].map((n) => [digest(n), blobs.find((blob) => blob.digest === digest(n))?.body])),
    );
    const none = await store.readRestore({ chain: { runId: 'missing1', step: 2 }, logs: [] });
    expect(none).toEqual({ chain: [], logs: [], blobs: new Map() });
  });
}
