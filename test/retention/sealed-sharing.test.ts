import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { createEngine } from '../../src/engine/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { serializeCassette } from '../../src/cassette/index.js';
import { collectGarbage } from '../../src/retention/collect-garbage.js';
import { sqliteStore } from '../../src/store/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { rejectionCode } from '../support/thrown.js';
import { DAY_4, DAY_5, INCIDENT, KEY_7, KEY_8, droppingWorld, world } from '../support/sealed-days.js';

/** How many of the blobs run `owner` stored are sealed under each key (null: plain), read from the file. */
function blobKeys(path: string, owner?: string): Map<string | null, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT key_id, COUNT(*) AS count FROM blobs
         WHERE body IS NOT NULL AND (@owner IS NULL OR owner_key = (SELECT run_key FROM runs WHERE run_id = @owner))
         GROUP BY key_id`,
      )
      .all({ owner: owner ?? null }) as Array<{ key_id: string | null; count: number }>;
    return new Map(rows.map((row) => [row.key_id, row.count]));
  } finally {
    db.close();
  }
}

/** Every checkpoint of the run restores from `store` (another process's, holding no derived key). */
async function restoresEveryCheckpoint(store: Store, runId: string, steps: number): Promise<void> {
  for (let step = 0; step <= steps; step++) {
    const restored = await restoreCheckpoint(store, runId, step);
    expect(restored.context.step).toBe(step);
  }
}

describe('blobs shared by runs of different expiry days', () => {
  const folders: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.cleanup();
  });
  const fileDatabase = (): string => {
    const folder = tempFolder('forkpoint-sharing-');
    folders.push(folder);
    return join(folder.path, 'shared.db');
  };

  it('are sealed under the later key, so that the later run restores once the earlier one is purged and its key deleted', async () => {
    const path = fileDatabase();
    let now = DAY_4;
    const engine = createEngine({ store: sqliteStore({ path }), clock: () => now });
    const early = await engine.record({ ...INCIDENT, world: world(), runId: 'aaaa0004' });
    const fork = await engine.fork({
      parentRunId: early.runId,
      atStep: 4,
      agent: INCIDENT.agent,
      world: world(),
      override: { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } } },
    });
    const sealedEarly = blobKeys(path, early.runId).get(KEY_7) ?? 0;
    expect(sealedEarly).toBeGreaterThan(3);
    now = DAY_5;
    const late = await engine.record({ ...INCIDENT, world: world(), runId: 'bbbb0005' });
    // The same recording a day later: every blob the early run stored, the late one stored too, and they
    // moved to its key (their owner stays the early run); the fork's (a copy, expiring with its parent) stay.
    expect(late.steps.map((step) => step.requestHash)).toEqual(early.steps.map((step) => step.requestHash));
    const moved = blobKeys(path, early.runId);
    expect(moved.get(KEY_8)).toBe(sealedEarly);
    expect(moved.get(KEY_7)).toBeUndefined();
    expect(blobKeys(path, fork.runId).get(KEY_7)).toBeGreaterThan(0);
    const cassette = serializeCassette(await engine.cassette(late.runId));

    // The early run and its fork expire on the 7th; its key goes once that day is over, the late run's lives on.
    now = new Date('2026-03-08T01:00:00.000Z');
    const report = await engine.gc();
    expect(report.purged.map((run) => run.runId)).toEqual([early.runId, fork.runId]);
    expect(report.keys).toBe(1);
    expect(await engine.store.exportKey(KEY_7)).toBeUndefined();
    expect(await engine.store.exportKey(KEY_8)).toBeDefined();
    expect(blobKeys(path).get(KEY_7)).toBeUndefined();
    await engine.store.close();

    const other = sqliteStore({ path });
    await restoresEveryCheckpoint(other, late.runId, 9);
    const reader = createEngine({ store: other, clock: () => now });
    expect(serializeCassette(await reader.cassette(late.runId))).toBe(cassette);
    const replay = await reader.replay({
      agent: INCIDENT.agent,
      cassette: await reader.cassette(late.runId),
      mode: 'strict',
    });
    expect(replay).toMatchObject({ status: 'failed', error: { code: 'VALIDATION_FAILED', step: 9 } });
    expect(await rejectionCode(() => reader.cassette(early.runId))).toBe('CASSETTE_EXPIRED');
    await other.close();
  });

  it('stay under the key they have when a run that expires sooner stores them too', async () => {
    const path = fileDatabase();
    let now = DAY_4;
    const store = sqliteStore({ path });
    const engine = createEngine({ store, clock: () => now });
    const kept = await engine.record({ ...INCIDENT, world: world(), runId: 'aaaa0004' });
    const sealed = blobKeys(path, kept.runId).get(KEY_7) ?? 0;
    // A day later, with a full tier of 24 hours: the new run expires on the 6th, before the first.
    now = DAY_5;
    await store.updateSettings({ fullRetentionHours: 24 });
    const brief = await engine.record({ ...INCIDENT, world: world(), runId: 'cccc0006' });
    expect((await store.getRun(brief.runId))?.expiresAt).toBe('2026-03-06T09:00:00.000Z');
    expect(blobKeys(path, kept.runId).get(KEY_7)).toBe(sealed);
    expect(blobKeys(path).get('full:2026-03-06') ?? 0).toBeLessThan(sealed);

    now = new Date('2026-03-07T01:00:00.000Z');
    const report = await engine.gc();
    expect(report.purged.map((run) => run.runId)).toEqual([brief.runId]);
    expect(await store.exportKey('full:2026-03-06')).toBeUndefined();
    await store.close();
    const other = sqliteStore({ path });
    await restoresEveryCheckpoint(other, kept.runId, 9);
    await other.close();
  });

  it('go to plain text when a run kept for good stores them, and it restores after every key is gone', async () => {
    const path = fileDatabase();
    let now = DAY_4;
    const engine = createEngine({ store: sqliteStore({ path }), clock: () => now });
    const full = await engine.record({ ...INCIDENT, world: world(), runId: 'aaaa0004' });
    now = DAY_5;
    const synthetic = await engine.record({ ...INCIDENT, world: world(), runId: 'dddd0000', tier: 'synthetic' });
    expect(blobKeys(path, full.runId).get(KEY_7)).toBeUndefined();
    expect(blobKeys(path, full.runId).get(null)).toBeGreaterThan(3);

    now = new Date('2026-03-20T00:00:00.000Z');
    expect((await engine.gc()).purged.map((run) => run.runId)).toEqual([full.runId]);
    expect(await engine.store.exportKey(KEY_7)).toBeUndefined();
    await engine.store.close();
    const other = sqliteStore({ path });
    await restoresEveryCheckpoint(other, synthetic.runId, 9);
    await other.close();
  });

  it('stay readable for a resumed run until it is purged, whoever stored them with which key', async () => {
    const path = fileDatabase();
    let now = DAY_4;
    const engine = createEngine({ store: sqliteStore({ path }), clock: () => now });
    // Stopped by its provider after four steps on the 4th (key of the 7th), resumed on the 5th.
    const stopped = await engine.record({ ...INCIDENT, world: droppingWorld(3), runId: 'dead0004' });
    expect(stopped.steps).toHaveLength(4);
    now = DAY_5;
    const late = await engine.record({ ...INCIDENT, world: world(), runId: 'bbbb0005' });
    const resumed = await engine.resume({
      runId: stopped.runId,
      agent: INCIDENT.agent,
      world: world(),
      sideEffects: { tools: { estimate_repair: 'live' } },
    });
    expect(resumed.steps).toHaveLength(9);
    // The blobs of its first steps, which the late run stored too, moved to the late key; what the resume
    // wrote that the late run had stored keeps it (the late run owns those).
    expect(blobKeys(path, stopped.runId).get(KEY_8)).toBeGreaterThan(3);
    expect(blobKeys(path, late.runId).get(KEY_8)).toBeGreaterThan(0);
    expect(blobKeys(path, late.runId).get(KEY_7)).toBeUndefined();
    await restoresEveryCheckpoint(engine.store, stopped.runId, 9);

    // On the 7th, after the resumed run expired but before its key's day is over: it is purged, the late one restores.
    now = new Date('2026-03-07T10:00:00.000Z');
    expect((await engine.gc()).purged.map((run) => run.runId)).toEqual([stopped.runId]);
    now = new Date('2026-03-08T01:00:00.000Z');
    expect((await engine.gc()).keys).toBe(1);
    await engine.store.close();
    const other = sqliteStore({ path });
    await restoresEveryCheckpoint(other, late.runId, 9);
    await other.close();
  });
});

describe('a run whose key is deleted before gc purges it', () => {
  it('lists with its payloads shredded, refuses its rows, and is purged by the next gc with every blob it alone held', async () => {
    const folder = tempFolder('forkpoint-shredded-');
    try {
      const path = join(folder.path, 'shredded.db');
      const store = sqliteStore({ path });
      const engine = createEngine({ store, clock: () => DAY_4 });
      const run = await engine.record({ ...INCIDENT, world: world(), runId: 'aaaa0004' });
      expect((await store.getRun(run.runId))?.input).toEqual({ claimId: 'CLM-91077' });
      // gc leaves a run a live process is still writing: the key of its day goes anyway once the day is over.
      const at = new Date('2026-03-08T01:00:00.000Z');
      const first = await collectGarbage(store, at, (found) => found.runId === run.runId);
      expect(first).toMatchObject({ purged: [], keys: 1 });
      await store.close();

      const other = sqliteStore({ path });
      const shredded = await other.getRun(run.runId);
      expect(shredded).toMatchObject({ input: {}, status: 'failed' });
      expect(shredded?.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 9 });
      expect(shredded?.error?.message).toMatch(/shredded/);
      expect((await other.listRuns()).map((listed) => listed.runId)).toEqual([run.runId]);
      expect(await rejectionCode(() => other.readSteps(run.runId))).toBe('CASSETTE_EXPIRED');
      const blobs = blobKeys(path).get(KEY_7) ?? 0;
      expect(blobs).toBeGreaterThan(3);

      const second = await collectGarbage(other, at, () => false);
      expect(second.purged.map((purged) => purged.runId)).toEqual([run.runId]);
      expect(second.blobs).toBe(blobs + (blobKeys(path).get(null) ?? 0));
      expect(blobKeys(path).size).toBe(0);
      await other.close();
    } finally {
      folder.cleanup();
    }
  });
});
