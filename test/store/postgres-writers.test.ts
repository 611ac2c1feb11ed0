import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import type { Store } from '../../src/store/index.js';
import { blobLock } from '../../src/store/postgres/advisory-locks.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import {
  adminPool,
  describePostgres,
  dropFreshSchemasAfterAll,
  freshSchemaName,
  postgresTestUrl,
} from '../support/postgres.js';

dropFreshSchemasAfterAll();

const digest = (n: number): string => n.toString(16).padStart(32, '0');
const ref = (n: number): string => `{"$blob":"${digest(n)}"}`;
const blob = (n: number) => ({ digest: digest(n), body: `{"blob":${n}}` });
const finished = { status: 'completed' as const, outcome: { ok: true }, error: null, finishedAt: 'x' };
const redacted = { input: { claimId: 'aaaaa' }, error: null, override: null, findings: [] };
const purgeOf = (runId: string) => ({
  runId,
  purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' as const },
  redacted,
});

describePostgres('the PostgreSQL store under many writers', () => {
  let admin: pg.Pool;
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await admin.end();
  });
  const storesOn = (schema: string, count: number): Store[] =>
    Array.from({ length: count }, () => postgresStore({ connectionString: postgresTestUrl() ?? '', schema }));

  // A run of `steps` steps whose rows refer to blobs 1..3 (everyone's, handed over again by every step, in
  // another order each time) and a blob of each step's own.
  const record = async (store: Store, runId: string, own: number, steps: number): Promise<void> => {
    await store.createRun(sampleRun({ runId }), sampleStep(0, { checkpointFull: true }), [blob(1)]);
    for (let step = 1; step <= steps; step++) {
      const shared = step % 2 === 0 ? [blob(3), blob(2), blob(1)] : [blob(1), blob(2), blob(3)];
      await store.commitStep(
        runId,
        SAMPLE_OWNER_TOKEN,
        sampleStep(step, { response: ref(own + step), checkpoint: `{"head":${ref(1 + (step % 3))},"step":${step}}` }),
        [...shared, blob(own + step)],
        step === steps ? finished : undefined,
      );
    }
  };

  it('lets eight writers record at once, sharing blobs, while older runs sharing them are purged: no error, no lost step, no dangling reference', async () => {
    const schema = freshSchemaName();
    const stores = storesOn(schema, 8);
    try {
      // Older runs that refer to the shared blobs, purged while the writers run.
      for (let n = 0; n < 4; n++) await record(stores[0]!, `0ld0000${n}`, 10_000 + n * 100, 5);
      const writers = stores.flatMap((store, w) =>
        [0, 1, 2].map((r) => record(store, `${w}${r}00beef`, 100_000 + (w * 3 + r) * 100, 12)),
      );
      const purges = [0, 1, 2, 3].map((n) => stores[n % stores.length]!.purgeRuns([purgeOf(`0ld0000${n}`)]));
      await Promise.all([...writers, ...purges]);
      const runs = await stores[1]!.listRuns();
      expect(runs.filter((run) => run.purge === null).map((run) => [run.status, run.stepCount])).toEqual(
        Array.from({ length: 24 }, () => ['completed', 12]),
      );
      for (const run of runs.filter((listed) => listed.purge === null))
        expect((await stores[2]!.readSteps(run.runId)).map((row) => row.step)).toEqual(
          Array.from({ length: 13 }, (_, i) => i),
        );
      const { rows } = await admin.query(
        `SELECT count(*)::integer AS dangling FROM ${schema}.steps, unnest(steps.refs) AS wanted
         WHERE NOT EXISTS (SELECT 1 FROM ${schema}.blobs WHERE blobs.digest = wanted)`,
      );
      expect(rows).toEqual([{ dangling: 0 }]);
      // Every reference of a row has its (run, blob) pair, which is what a purge asks; a purged run has none.
      const pairs = await admin.query(
        `SELECT
           (SELECT count(*)::integer FROM ${schema}.steps, unnest(steps.refs) AS wanted
            WHERE NOT EXISTS (SELECT 1 FROM ${schema}.blob_reach AS pair
                              WHERE pair.run_key = steps.run_key AND pair.digest = wanted)) AS unpaired,
           (SELECT count(*)::integer FROM ${schema}.blob_reach JOIN ${schema}.runs USING (run_key)
            WHERE runs.purged_at IS NOT NULL) AS purged`,
      );
      expect(pairs.rows).toEqual([{ unpaired: 0, purged: 0 }]);
      expect((await stores[3]!.readBlobs([digest(1), digest(2), digest(3)])).size).toBe(3);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('gives one of eight writers creating the same run id the run, and the others RUN_EXISTS', async () => {
    const stores = storesOn(freshSchemaName(), 8);
    try {
      await stores[0]!.listRuns();
      const outcomes = await Promise.allSettled(
        stores.map((store, i) =>
          store.createRun(sampleRun({ build: `build-${i}` }), sampleStep(0, { checkpointFull: true }), [blob(i)]),
        ),
      );
      const refused = outcomes.filter(
        (outcome) => outcome.status === 'rejected' && isForkpointError(outcome.reason, 'RUN_EXISTS'),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      expect(refused).toHaveLength(7);
      const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
      expect((await stores[0]!.getRun('0000abcd'))?.build).toBe(`build-${winner}`);
      // Only the winner's blob was stored.
      expect([...(await stores[0]!.readBlobs(stores.map((_, i) => digest(i)))).keys()]).toEqual([digest(winner)]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('makes a purge wait for a write in flight (which holds the blob lock shared) before it decides which blobs go', async () => {
    const schema = freshSchemaName();
    const [store] = storesOn(schema, 1);
    const writer = await admin.connect();
    try {
      await record(store!, '0ld00001', 500, 2);
      // A write in flight, as commitStep holds it: the blob lock shared, until it commits.
      await writer.query('BEGIN');
      await writer.query('SELECT pg_advisory_xact_lock_shared($1::bigint)', [blobLock(schema)]);
      let purged = false;
      const purge = store!.purgeRuns([purgeOf('0ld00001')]).then((counts) => {
        purged = true;
        return counts;
      });
      // Until the server shows the purge waiting for that lock.
      const key = BigInt(blobLock(schema));
      const high = Number((BigInt.asUintN(64, key) >> 32n) & 0xffffffffn);
      const low = Number(BigInt.asUintN(64, key) & 0xffffffffn);
      while (
        (
          await admin.query(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid::bigint = $1 AND objid::bigint = $2",
            [high, low],
          )
        ).rowCount === 0
      );
      expect(purged).toBe(false);
      await writer.query('COMMIT');
      // Blob 1 was handed over but no row refers to it: it is not among what the purged rows reached.
      expect(await purge).toEqual({ steps: 3, blobs: 4 });
    } finally {
      writer.release();
      await store!.close();
    }
  });
});
