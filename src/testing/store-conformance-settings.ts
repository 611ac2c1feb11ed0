import { expect, it } from 'vitest';
import { sealingKeyFor } from '../cassette/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
import type { StoreSuite } from './store-suite.js';

/**
 * A store's own settings and export keys, and how it relates runs: the
 * children of a run, the messages of a fork's own rows. Registered by
 * `describeStoreConformance`.
 */
export function describeSettingsConformance(suite: StoreSuite): void {
  it('has an id and retention periods, and changes only the periods asked for', async () => {
    const store = await suite.fresh();
    const settings = await store.settings();
    expect(settings.storeId).toMatch(/^[0-9a-f]{16}$/);
    expect(settings.fullRetentionHours).toBeGreaterThan(0);
    expect(settings.structuralRetentionDays).toBeGreaterThan(0);
    const changed = await store.updateSettings({ fullRetentionHours: 24 });
    expect(changed).toEqual({ ...settings, fullRetentionHours: 24 });
    expect(await store.updateSettings({ structuralRetentionDays: 30 })).toEqual({
      ...settings,
      fullRetentionHours: 24,
      structuralRetentionDays: 30,
    });
    expect(await store.settings()).toEqual({ ...settings, fullRetentionHours: 24, structuralRetentionDays: 30 });
  });

  it("makes the export key of a full-tier run's expiry day with the run, and drops it when its day is over", async () => {
    const store = await suite.fresh();
    const expiresAt = '2026-03-07T10:00:00.000Z';
    const key = sealingKeyFor(expiresAt);
    expect(await store.exportKey(key.id)).toBeUndefined();
    await store.createRun(sampleRun({ expiresAt }), sampleStep(0, { checkpointFull: true }), []);
    const made = await store.exportKey(key.id);
    expect(made?.id).toBe(key.id);
    expect(made?.secret).toHaveLength(32);
    // A second run expiring the same day shares the key; a synthetic run makes none.
    await store.createRun(sampleRun({ runId: '0000abce', expiresAt }), sampleStep(0, { checkpointFull: true }), []);
    await store.createRun(
      sampleRun({ runId: '0000abcf', tier: 'synthetic', expiresAt: null, structuralExpiresAt: null }),
      sampleStep(0, { checkpointFull: true }),
      [],
    );
    expect((await store.exportKey(key.id))?.secret).toEqual(made?.secret);
    expect(await store.dropExportKeys(new Date(Date.parse(key.deleteAfter) - 1).toISOString())).toBe(0);
    expect(await store.exportKey(key.id)).toBeDefined();
    expect(await store.dropExportKeys(key.deleteAfter)).toBe(1);
    expect(await store.exportKey(key.id)).toBeUndefined();
    expect(await store.dropExportKeys(key.deleteAfter)).toBe(0);
  });

  it('lists the forks, replays and re-executions of a run, oldest first', async () => {
    const store = await suite.fresh();
    const start = sampleStep(0, { checkpointFull: true });
    await store.createRun(sampleRun({ runId: 'aaaa0001' }), start, []);
    await store.createRun(
      sampleRun({
        runId: 'aaaa0003',
        createdAt: '2026-03-04T12:00:00.000Z',
        parent: { runId: 'aaaa0001', atStep: 1, override: null, changes: null },
      }),
      null,
      [],
    );
    await store.createRun(
      sampleRun({ runId: 'aaaa0002', createdAt: '2026-03-04T11:00:00.000Z', sourceRunId: 'aaaa0001' }),
      start,
      [],
    );
    await store.createRun(sampleRun({ runId: 'aaaa0004', sourceRunId: 'aaaa0003' }), start, []);
    expect((await store.listChildren('aaaa0001')).map((run) => run.runId)).toEqual(['aaaa0002', 'aaaa0003']);
    expect((await store.listChildren('aaaa0003')).map((run) => run.runId)).toEqual(['aaaa0004']);
    expect(await store.listChildren('aaaa0004')).toEqual([]);
  });

  it("counts a fork's steps from its own rows, which start at its fork step, and reads them row by row", async () => {
    const store = await suite.fresh();
    await store.createRun(sampleRun({ runId: 'aaaa0001' }), sampleStep(0, { checkpointFull: true }), []);
    const fork = sampleRun({ parent: { runId: 'aaaa0001', atStep: 5, override: null, changes: null } });
    await store.createRun(fork, null, []);
    expect((await store.getRun(fork.runId))?.stepCount).toBe(0);
    expect(await store.readCheckpointChain(fork.runId, 5)).toEqual([]);
    await store.commitStep(fork.runId, SAMPLE_OWNER_TOKEN, sampleStep(5, { checkpointFull: true }), []);
    await store.commitStep(fork.runId, SAMPLE_OWNER_TOKEN, sampleStep(6), []);
    expect((await store.getRun(fork.runId))?.stepCount).toBe(6);
    expect((await store.readCheckpointChain(fork.runId, 6)).map((row) => row.step)).toEqual([5, 6]);
    expect(await store.readMessages(fork.runId, 5, 6)).toEqual({
      segments: [],
      messages: ['{"role":"user","n":6}'],
      digests: ['digest-6'],
    });
  });
}
