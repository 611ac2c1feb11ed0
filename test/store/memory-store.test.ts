import { describe, expect, it } from 'vitest';
import { isForkpointError, memoryStore } from '../../src/index.js';
import { describeStoreConformance, sampleRun, sampleStep } from '../../src/testing/index.js';

describeStoreConformance('memory', { open: () => memoryStore() });

describe('memoryStore', () => {
  it('takes its id, retention periods and randomness from its options', async () => {
    let draws = 0;
    const store = memoryStore({
      location: 'memory:test',
      storeId: '0123456789abcdef',
      retention: { fullRetentionHours: 12 },
      randomBytes: (count) => new Uint8Array(count).fill(++draws),
    });
    expect(store.location).toBe('memory:test');
    expect(await store.settings()).toEqual({
      storeId: '0123456789abcdef',
      fullRetentionHours: 12,
      structuralRetentionDays: 90,
    });
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    expect((await store.exportKey('full:2026-03-07'))?.secret).toEqual(new Uint8Array(32).fill(1));
  });

  it('hands out copies: changing what it returned changes nothing it holds', async () => {
    const store = memoryStore();
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    const run = await store.getRun('0000abcd');
    (run!.input as { claimId: string }).claimId = 'changed';
    expect((await store.getRun('0000abcd'))?.input.claimId).toBe('CLM-1');
  });

  it('refuses every call once closed', async () => {
    const store = memoryStore();
    await store.close();
    let caught: unknown;
    try {
      await store.listRuns();
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'INTERNAL')).toBe(true);
  });
});
