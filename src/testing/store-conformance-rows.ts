import { expect, it } from 'vitest';
import { itemAt } from './item-at.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/** How a store reads a run's rows back: checkpoint chains, messages and their segments, blobs byte for byte. Registered by `describeStoreConformance`. */
export function describeRowConformance(suite: StoreSuite): void {
  it('returns the checkpoint chain from the nearest full checkpoint', async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    for (let step = 1; step <= 9; step++) await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step), []);
    expect((await store.readCheckpointChain('0000abcd', 7)).map((row) => row.step)).toEqual([4, 5, 6, 7]);
    expect((await store.readCheckpointChain('0000abcd', 8)).map((row) => row.step)).toEqual([8]);
    expect((await store.readCheckpointChain('0000abcd', 3)).map((row) => row.step)).toEqual([0, 1, 2, 3]);
    expect(await store.readCheckpointChain('0000abcd', 12)).toEqual([]);
  });

  it('reads the messages rows appended over a range of steps in order, each as stored', async () => {
    const store = await suite.fresh();
    await store.createRun(
      sampleRun(),
      sampleStep(0, { checkpointFull: true, message: '{"first":true}', messageDigest: 'd0' }),
      [],
    );
    for (let step = 1; step <= 7; step++) await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step), []);
    expect(await store.readMessages('0000abcd', 0, 6)).toEqual({
      segments: [],
      messages: ['{"first":true}', '{"role":"user","n":3}', '{"role":"user","n":6}'],
      digests: ['d0', 'digest-3', 'digest-6'],
    });
    expect(await store.readMessages('0000abcd', 1, 7)).toEqual({
      segments: [],
      messages: ['{"role":"user","n":3}', '{"role":"user","n":6}'],
      digests: ['digest-3', 'digest-6'],
    });
    expect(await store.readMessages('0000abcd', 4, 5)).toEqual({ segments: [], messages: [], digests: [] });
  });

  it("reads a range that starts at the run's first row as its conversation segments and the messages after the last", async () => {
    const store = await suite.fresh();
    // Full rows every 4 steps carry the segment of the messages since the previous one (steps 3, 6, 9 hold messages).
    const segment = (step: number) => ({ digest: `segment-${step}`, body: `[{"segment":${step}}]` });
    const withSegment = (step: number) =>
      sampleStep(step, step % 4 === 0 ? { messageSegment: segment(step).digest } : {});
    await store.createRun(
      sampleRun(),
      { ...withSegment(0), checkpointFull: true, message: '{"first":true}', messageDigest: 'd0' },
      [segment(0)],
    );
    for (let step = 1; step <= 9; step++)
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, withSegment(step), step % 4 === 0 ? [segment(step)] : []);
    expect(itemAt(await store.readSteps('0000abcd', 4, 4), 0).messageSegment).toBe('segment-4');
    expect(await store.readMessages('0000abcd', 0, 7)).toEqual({
      segments: ['[{"segment":0}]', '[{"segment":4}]'],
      messages: ['{"role":"user","n":6}'],
      digests: ['digest-6'],
    });
    expect(await store.readMessages('0000abcd', 0, 9)).toEqual({
      segments: ['[{"segment":0}]', '[{"segment":4}]', '[{"segment":8}]'],
      messages: ['{"role":"user","n":9}'],
      digests: ['digest-9'],
    });
    // Step 2 is not the run's first row: segment 4 also covers steps 1 and 3, so the range comes row by row.
    expect(await store.readMessages('0000abcd', 2, 7)).toEqual({
      segments: [],
      messages: ['{"role":"user","n":3}', '{"role":"user","n":6}'],
      digests: ['digest-3', 'digest-6'],
    });
    // Nor does a range from a later full checkpoint: segment 8 covers what came since segment 4, step 6 included.
    expect(await store.readMessages('0000abcd', 8, 9)).toEqual({
      segments: [],
      messages: ['{"role":"user","n":9}'],
      digests: ['digest-9'],
    });
  });

  it('stores each blob once and returns bodies byte for byte', async () => {
    const store = await suite.fresh();
    const body = JSON.stringify({ text: 'naïve 🦊 \ud83d tail', n: 1.5 });
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'same', body }]);
    await store.createRun(sampleRun({ runId: '0000abce' }), sampleStep(0, { checkpointFull: true }), [
      { digest: 'same', body },
    ]);
    const read = await store.readBlobs(['same', 'unknown']);
    expect([...read.keys()]).toEqual(['same']);
    expect(read.get('same')).toBe(body);
    expect(JSON.parse(read.get('same') ?? 'null')).toMatchObject({ text: 'naïve 🦊 \ud83d tail' });
  });

  it("keeps a step's side-effect mark", async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2, { sideEffect: true }), []);
    expect((await store.readSteps('0000abcd')).map((row) => row.sideEffect)).toEqual([false, false, true]);
  });
}
