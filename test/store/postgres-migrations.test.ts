import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { readSchemaVersion } from '../../src/store/postgres/open-schema.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import type { PostgresStoreOptions } from '../../src/store/postgres/postgres-store.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import {
  adminPool,
  describePostgres,
  dropFreshSchemasAfterAll,
  freshSchemaName,
  postgresTestUrl,
} from '../support/postgres.js';

dropFreshSchemasAfterAll();

const storeOn = (schema: string, options: Partial<PostgresStoreOptions> = {}) =>
  postgresStore({ connectionString: postgresTestUrl() ?? '', schema, ...options });

async function codeOf(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return isForkpointError(error) ? error.code : String(error);
  }
  return undefined;
}

describePostgres('PostgreSQL store migrations', () => {
  let admin: pg.Pool;
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await admin.end();
  });

  it('migrates once when sixteen stores open a new schema at the same moment', async () => {
    const schema = freshSchemaName();
    const stores = Array.from({ length: 16 }, () => storeOn(schema, { now: () => new Date('2026-03-04T09:00:00Z') }));
    try {
      const runs = await Promise.all(stores.map((store) => store.listRuns()));
      expect(runs.every((listed) => listed.length === 0)).toBe(true);
      const { rows } = await admin.query(`SELECT version, name, applied_at FROM ${schema}.schema_migrations`);
      expect(rows).toEqual(
        POSTGRES_MIGRATIONS.map((migration) => ({
          version: migration.version,
          name: migration.name,
          applied_at: '2026-03-04T09:00:00.000Z',
        })),
      );
      // Every one of them writes to the same tables.
      await Promise.all(
        stores.map((store, i) =>
          store.createRun(
            sampleRun({ runId: `0000ab${i.toString(16).padStart(2, '0')}` }),
            sampleStep(0, { checkpointFull: true }),
            [],
          ),
        ),
      );
      expect(await stores[0]!.listRuns()).toHaveLength(16);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('records each migration once across reopens, and keeps what was written', async () => {
    const schema = freshSchemaName();
    const first = storeOn(schema);
    await first.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), [{ digest: 'a1', body: '"kept"' }]);
    await first.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
    await first.close();
    const again = storeOn(schema);
    expect((await again.getRun('0000abcd'))?.stepCount).toBe(1);
    await again.close();
    const { rows } = await admin.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    expect(rows.map((row: { version: number }) => row.version)).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1),
    );
  });

  it('refuses a schema of a newer forkpoint with STORE_TOO_NEW, writing and reading', async () => {
    const schema = freshSchemaName();
    const store = storeOn(schema);
    await store.listRuns();
    await store.close();
    await admin.query(
      `INSERT INTO ${schema}.schema_migrations (version, name, applied_at) VALUES ($1, 'future', 'x')`,
      [POSTGRES_SCHEMA_VERSION + 1],
    );
    for (const readOnly of [false, true]) {
      const newer = storeOn(schema, { readOnly });
      expect(await codeOf(() => newer.listRuns())).toBe('STORE_TOO_NEW');
      await newer.close();
    }
  });

  it('refuses a schema holding tables that are not forkpoint’s, and changes nothing in it', async () => {
    const schema = freshSchemaName();
    await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.invoices (id integer)`);
    for (const readOnly of [false, true]) {
      const store = storeOn(schema, { readOnly });
      let caught: unknown;
      try {
        await store.listRuns();
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'STORE_CORRUPT', details: { remedy: { kind: 'choose-schema' } } });
      expect((caught as Error).message).toMatch(/is a PostgreSQL schema but not a forkpoint one \(tables: invoices\)/);
      await store.close();
    }
    const { rows } = await admin.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [schema],
    );
    expect(rows).toEqual([{ table_name: 'invoices' }]);
  });

  it('refuses a schema with forkpoint’s tables but no record of its migrations', async () => {
    const schema = freshSchemaName();
    const store = storeOn(schema);
    await store.listRuns();
    await store.close();
    await admin.query(`DROP TABLE ${schema}.schema_migrations`);
    const again = storeOn(schema);
    expect(await codeOf(() => again.listRuns())).toBe('STORE_CORRUPT');
    await again.close();
  });

  it('refuses a database whose public schema holds tables, when no schema was named for the store', async () => {
    // In a transaction of the test's own, which no other session sees, and rolled back.
    const client = await admin.connect();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TABLE public.fp_test_invoices (id integer)');
      const run = (text: string, values?: readonly unknown[]) => client.query(text, values as unknown[]);
      const place = { schema: freshSchemaName(), location: 'postgres://x@y/z', checkDatabase: true };
      let caught: unknown;
      try {
        await readSchemaVersion(run, place);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'STORE_CORRUPT' });
      expect((caught as Error).message).toMatch(
        /is a PostgreSQL database but not a forkpoint one \(tables: .*fp_test_invoices/,
      );
      // A schema named on purpose is the store's, whatever else the database holds.
      expect(await readSchemaVersion(run, { ...place, checkDatabase: false })).toBe(0);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('reads a schema without forkpoint’s tables as a store with no runs, refuses writes, and creates nothing', async () => {
    const schema = freshSchemaName();
    const store = storeOn(schema, { readOnly: true });
    expect(await store.listRuns()).toEqual([]);
    expect(await store.getRun('0000abcd')).toBeUndefined();
    expect(await store.queryRuns({ limit: 10 })).toEqual([]);
    expect(await store.read((reader) => reader.readSteps('0000abcd'))).toEqual([]);
    expect((await store.settings()).fullRetentionHours).toBe(72);
    expect(await codeOf(() => store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []))).toBe('USAGE');
    expect(await codeOf(() => store.compact())).toBe('USAGE');
    await store.close();
    const { rows } = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    expect(rows).toEqual([]);
  });

  it('reads a store read-only, and refuses its writes', async () => {
    const schema = freshSchemaName();
    const writer = storeOn(schema);
    await writer.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await writer.close();
    const reader = storeOn(schema, { readOnly: true });
    expect((await reader.getRun('0000abcd'))?.status).toBe('running');
    expect(await reader.read(async (snapshot) => (await snapshot.listRuns()).length)).toBe(1);
    const finish = { status: 'completed' as const, outcome: null, error: null, finishedAt: 'x' };
    expect(await codeOf(() => reader.finishRun('0000abcd', SAMPLE_OWNER_TOKEN, finish))).toBe('USAGE');
    await reader.close();
    const again = storeOn(schema);
    expect((await again.getRun('0000abcd'))?.status).toBe('running');
    await again.close();
  });
});
