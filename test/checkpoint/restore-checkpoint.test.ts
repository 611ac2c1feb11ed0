import { describe, expect, it } from 'vitest';
import { RequestHasher } from '../../src/cassette/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { MACHINE_VERSION } from '../../src/machine/index.js';
import { lineageOf, restoreCheckpoint } from '../../src/checkpoint/index.js';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore, sqliteStore } from '../../src/store/index.js';
import type { ConversationSegment } from '../../src/checkpoint/index.js';
import { FULL_CHECKPOINT_EVERY, SEGMENT_MIN_MESSAGES } from '../../src/checkpoint/index.js';
import scenario from '../../scenarios/claims-triage/index.js';
import { recordWithSnapshots } from '../support/record-with-snapshots.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import { stampedAs } from '../support/stamped-store.js';

describe('restoreCheckpoint', () => {
  it('tells a checkpoint whose rows a gc removed after its lineage was read from one that never existed', async () => {
    let now = new Date('2026-03-04T10:00:00.000Z');
    const engine = createEngine({ store: memoryStore(), clock: () => now });
    const run = await engine.record({ agent: testAgent(), world: syntheticWorld({ toolCalls: 3 }), input: { n: 1 } });
    const lineage = await lineageOf(engine.store, run.runId);
    expect((await restoreCheckpoint(engine.store, run.runId, 3, lineage)).context.step).toBe(3);
    await expect(restoreCheckpoint(engine.store, run.runId, 99, lineage)).rejects.toMatchObject({
      code: 'STEP_OUT_OF_RANGE',
    });
    now = new Date('2026-03-08T10:00:00.000Z');
    expect((await engine.gc()).purged.map((purged) => purged.runId)).toEqual([run.runId]);
    await expect(restoreCheckpoint(engine.store, run.runId, 3, lineage)).rejects.toMatchObject({
      code: 'CASSETTE_EXPIRED',
      message: expect.stringContaining('was removed from storage at 2026-03-08T10:00:00.000Z while it was being read'),
    });
  });

  it('rebuilds every checkpoint of a long run exactly as the driver held it', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(
      store,
      testAgent({ stepCap: 100 }),
      syntheticWorld({ toolCalls: 30, resultBytes: 2048 }),
      { n: 1 },
    );
    expect(recorded.contexts).toHaveLength(62);
    for (let step = 0; step < recorded.contexts.length; step++) {
      const restored = await restoreCheckpoint(store, recorded.runId, step);
      expect(restored.value).toBe(recorded.values[step]);
      expect(restored.context).toEqual(recorded.contexts[step]);
    }
  });

  it('restores the digests a fresh hasher computes for the same messages', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(store, testAgent(), syntheticWorld({ toolCalls: 5 }), { n: 1 });
    const restored = await restoreCheckpoint(store, recorded.runId, 9);
    expect(restored.messageDigests).toEqual(new RequestHasher().messageDigests(restored.context.messages));
  });

  it('keeps a batch of parallel tool results at rest between them (CLM-91080)', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const world = scenario.openWorld({ at: '2026-03-04', seed: 3, latencyMs: 0 });
    const recorded = await recordWithSnapshots(store, scenario.builds.baseline!, world, { claimId: 'CLM-91080' });
    const midBatch = recorded.contexts.findIndex((context) => context.results.length === 1);
    expect(midBatch).toBeGreaterThan(0);
    expect((await restoreCheckpoint(store, recorded.runId, midBatch)).context).toEqual(recorded.contexts[midBatch]);
  });

  it('writes a full checkpoint on row 0 and every FULL_CHECKPOINT_EVERY steps, deltas between', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(store, testAgent(), syntheticWorld({ toolCalls: 20 }), { n: 1 });
    const full = (await store.readSteps(recorded.runId)).filter((row) => row.checkpointFull).map((row) => row.step);
    expect(full).toEqual([0, FULL_CHECKPOINT_EVERY, 2 * FULL_CHECKPOINT_EVERY]);
    expect((await store.readCheckpointChain(recorded.runId, 40)).length).toBeLessThanOrEqual(FULL_CHECKPOINT_EVERY);
  });

  it('stores conversation segments on full rows: every message since the previous segment, with their digests', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(
      store,
      testAgent(),
      syntheticWorld({ toolCalls: 20, resultBytes: 600 }),
      { n: 1 },
    );
    const rows = await store.readSteps(recorded.runId);
    // Row 0 holds one message, fewer than a segment's minimum: its message joins the segment of row 16.
    expect(rows.filter((row) => row.messageSegment !== null).map((row) => row.step)).toEqual([16, 32]);
    expect(rows.filter((row) => row.checkpointFull).map((row) => row.step)).toEqual([0, 16, 32]);
    const segments: ConversationSegment[] = [];
    for (const row of rows)
      if (row.messageSegment !== null)
        segments.push(
          JSON.parse((await store.readBlobs([row.messageSegment])).get(row.messageSegment)!) as ConversationSegment,
        );
    expect(segments[0]!.messages.length).toBeGreaterThanOrEqual(SEGMENT_MIN_MESSAGES);
    const conversation = recorded.contexts[32]!.messages;
    expect(segments.flatMap((segment) => segment.messages)).toEqual(conversation);
    expect(segments.flatMap((segment) => segment.digests)).toEqual(new RequestHasher().messageDigests(conversation));
  });

  it('hands out fresh objects on every restore', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(
      store,
      testAgent(),
      syntheticWorld({ toolCalls: 2, resultBytes: 1024 }),
      { n: 1 },
    );
    const first = await restoreCheckpoint(store, recorded.runId, 3);
    (first.context.messages as unknown[]).push('mutated');
    (first.context.input as Record<string, unknown>).n = 99;
    expect((await restoreCheckpoint(store, recorded.runId, 3)).context).toEqual(recorded.contexts[3]);
  });

  it('refuses a checkpoint written by a newer machine, naming both versions', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(store, testAgent(), syntheticWorld({ toolCalls: 1 }), { n: 1 });
    try {
      await restoreCheckpoint(stampedAs(store, MACHINE_VERSION, 99), recorded.runId, 2);
      expect.unreachable();
    } catch (error) {
      expect(isForkpointError(error, 'CHECKPOINT_INCOMPATIBLE')).toBe(true);
      expect((error as Error).message).toContain(`machine version 99, newer than this forkpoint's ${MACHINE_VERSION}`);
    }
  });

  it('restores a checkpoint of machine version 1 through the migration shipped with version 2, and says so', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(store, testAgent(), syntheticWorld({ toolCalls: 2 }), { n: 1 });
    for (let step = 0; step <= recorded.contexts.length - 1; step += 1) {
      const restored = await restoreCheckpoint(stampedAs(store, MACHINE_VERSION, 1), recorded.runId, step);
      expect(restored.context).toEqual(recorded.contexts[step]);
      expect(restored.machineMigrated).toEqual({ from: 1, to: MACHINE_VERSION });
    }
    expect((await restoreCheckpoint(store, recorded.runId, 2)).machineMigrated).toBeUndefined();
  });

  it('reports a checkpoint past the end as STEP_OUT_OF_RANGE', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const recorded = await recordWithSnapshots(store, testAgent(), syntheticWorld({ toolCalls: 1 }), { n: 1 });
    await expect(restoreCheckpoint(store, recorded.runId, 4)).rejects.toThrow(/no checkpoint 4/);
  });
});
