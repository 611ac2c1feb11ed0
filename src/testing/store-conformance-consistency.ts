import { expect, it } from 'vitest';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/** What `read` promises (one state for several reads), and what a store keeps across a reopen. Registered by `describeStoreConformance`. */
export function describeConsistencyConformance(suite: StoreSuite): void {
  it('reads inside read() and returns what the work returns; an error leaves the store usable', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'r1', body: '"r"' }]);
    expect(
      await store.read(async (reader) => [
        (await reader.getRun('0000abcd'))?.status,
        (await reader.readBlobs(['r1'])).get('r1'),
      ]),
    ).toEqual(['running', '"r"']);
    await expect(store.read(() => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    expect(await store.read((reader) => reader.read(async (inner) => (await inner.readSteps('0000abcd')).length))).toBe(
      2,
    );
  });

  it('lets a write of the same store wait for the reads open on it, which never see it', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    let written: Promise<void> | undefined;
    const seen = await store.read(async (reader) => {
      const before = (await reader.readSteps('0000abcd')).length;
      written = store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      // Overlapping reads share the state the first one opened.
      const during = await store.read(async (other) => (await other.readSteps('0000abcd')).length);
      return [before, (await reader.readSteps('0000abcd')).length, during];
    });
    expect(seen).toEqual([1, 1, 1]);
    await written;
    expect(await store.readSteps('0000abcd')).toHaveLength(2);
  });

  const another = suite.factory.another?.bind(suite.factory);
  if (another !== undefined) {
    it('shows read() one state: a step committed elsewhere meanwhile appears only after it', async () => {
      const store = await suite.fresh();
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      const writer = suite.track(await another(store));
      const seen = await store.read(async (reader) => {
        const before = (await reader.readSteps('0000abcd')).length;
        await writer.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
        return [
          before,
          (await reader.readSteps('0000abcd')).length,
          (await reader.readCheckpointChain('0000abcd', 1)).length,
        ];
      });
      expect(seen).toEqual([1, 1, 0]);
      expect(await store.readSteps('0000abcd')).toHaveLength(2);
    });
  }

  const reopen = suite.factory.reopen?.bind(suite.factory);
  if (reopen !== undefined) {
    it('keeps everything committed across a reopen', async () => {
      const store = suite.track(await suite.factory.open());
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'kept', body: '"kept"' }]);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      const again = suite.track(await reopen(store));
      expect((await again.getRun('0000abcd'))?.stepCount).toBe(1);
      expect(await again.readSteps('0000abcd')).toHaveLength(2);
      expect((await again.readBlobs(['kept'])).get('kept')).toBe('"kept"');
    });
  }
}
