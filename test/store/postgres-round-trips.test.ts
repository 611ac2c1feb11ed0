import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import type { Store } from '../../src/store/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import { countingPool } from '../support/counting-pool.js';
import type { CountingPool } from '../support/counting-pool.js';
import { describePostgres, dropFreshSchemasAfterAll, freshSchemaName, postgresTestUrl } from '../support/postgres.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

dropFreshSchemasAfterAll();

const digest = (n: number): string => n.toString(16).padStart(32, '0');

describePostgres('the PostgreSQL store, statement by statement', () => {
  let pool: CountingPool;
  let store: Store;
  const open = async (): Promise<void> => {
    pool = countingPool();
    store = postgresStore({ pool, schema: freshSchemaName() });
    // Connected and migrated: what follows counts only the calls' own statements.
    await store.listRuns();
    pool.reset();
  };
  afterEach(async () => {
    await store.close();
    await pool.end();
  });

  const statementsOf = async (work: () => Promise<unknown>): Promise<string[]> => {
    pool.reset();
    await work();
    return [...pool.statements];
  };

  it('creates a run, commits a step, and commits a last step with the run’s ending, in one statement each', async () => {
    await open();
    const blob = (n: number) => ({ digest: digest(n), body: `{"n":${n}}` });
    expect(
      await statementsOf(() => store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [blob(0)])),
    ).toHaveLength(1);
    for (let step = 1; step <= 5; step++) {
      const blobs = [blob(step), blob(100 + step), blob(0)];
      const response = `{"$blob":"${digest(step)}"}`;
      expect(
        await statementsOf(() =>
          store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(step, { response }), blobs),
        ),
      ).toHaveLength(1);
    }
    const finish = { status: 'completed' as const, outcome: { ok: true }, error: null, finishedAt: 'x' };
    expect(
      await statementsOf(() => store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(6), [], finish)),
    ).toHaveLength(1);
    expect(await store.getRun('0000abcd')).toMatchObject({ status: 'completed', stepCount: 6 });
    expect((await store.readBlobs([digest(3), digest(103)])).size).toBe(2);
    // A step refused to its writer takes a second statement, which says why.
    const refused = await statementsOf(() =>
      store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(7), []).catch(() => undefined),
    );
    expect(refused).toHaveLength(2);
  });

  it('restores a checkpoint in two statements and no transaction, at step 5 as at step 41 and in a fork, through the engine', async () => {
    await open();
    const engine = createEngine({ store, clock: () => new Date('2026-03-04T10:00:00.000Z') });
    const recorded = await engine.record({
      agent: testAgent(),
      world: syntheticWorld({ toolCalls: 20, resultBytes: 2048 }),
      input: { task: 'round trips' },
    });
    expect(recorded.status).toBe('completed');
    const forked = await engine.fork({
      parentRunId: recorded.runId,
      atStep: 20,
      override: { kind: 'tool-result', output: { echoed: 'changed' } },
      agent: testAgent(),
      world: syntheticWorld({ toolCalls: 20, resultBytes: 2048 }),
    });
    expect(forked.status).toBe('completed');
    const counts: number[] = [];
    for (const [runId, step] of [
      [recorded.runId, 5],
      [recorded.runId, 41],
      [forked.runId, 30],
    ] as const) {
      pool.reset();
      const restored = await engine.checkpoint(runId, step);
      expect(restored.context.step).toBe(step);
      // The run with its ancestors, then the rows with every blob they reach; no BEGIN, no COMMIT. A
      // connection new to the pool is set up first, once in its life.
      counts.push(pool.statements.filter((text) => !text.includes('set_config')).length);
    }
    expect(counts).toEqual([2, 2, 2]);
  });

  it('reads a lineage and a restore in one statement each, outside read() too', async () => {
    await open();
    await store.createRun(sampleRun({ runId: 'root0001' }), sampleStep(0, { checkpointFull: true }), []);
    const fork = sampleRun({
      runId: 'fork0001',
      mode: 'fork',
      parent: { runId: 'root0001', atStep: 0, override: null, changes: null },
    });
    await store.createRun(fork, null, []);
    expect(await statementsOf(() => store.readLineage('fork0001'))).toHaveLength(1);
    expect(
      await statementsOf(() =>
        store.readRestore({
          chain: { runId: 'root0001', step: 0 },
          logs: [{ runId: 'root0001', from: 0, to: 0 }],
        }),
      ),
    ).toHaveLength(1);
  });
});

describePostgres('the PostgreSQL store on a pool of the user’s own', () => {
  it('sets each connection for the store once, and leaves the pool open when it closes', async () => {
    const schema = freshSchemaName();
    // One connection, so that the store's and the test's statements share it.
    const pool = new pg.Pool({ connectionString: postgresTestUrl(), max: 1 });
    try {
      const store = postgresStore({ pool, schema, synchronous: 'FULL', statementTimeoutMs: 12_345 });
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      await store.close();
      const { rows } = await pool.query<Record<string, string>>(
        "SELECT current_setting('search_path') AS search_path, current_setting('statement_timeout') AS statement_timeout, current_setting('synchronous_commit') AS synchronous_commit",
      );
      expect(rows).toEqual([{ search_path: schema, statement_timeout: '12345ms', synchronous_commit: 'on' }]);
      expect((await pool.query('SELECT count(*)::integer AS runs FROM runs')).rows).toEqual([{ runs: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
