import { afterAll, beforeAll, expect, it } from 'vitest';
import type pg from 'pg';
import type { RunQuery, Store } from '../../src/store/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import type { CountingPool } from '../support/counting-pool.js';
import { countingPool } from '../support/counting-pool.js';
import { adminPool, describePostgres, dropFreshSchemasAfterAll, freshSchemaName } from '../support/postgres.js';

dropFreshSchemasAfterAll();

const RUNS = 20_000;
const id = (n: number) => n.toString(16).padStart(12, '0');

// Values of each filter a page takes, each matched by a few runs among many, as a listing's filters often are.
const VALUES = {
  since: { since: '2026-02-15T00:00:00.000Z' },
  until: { until: '2026-02-10T00:00:00.000Z' },
  before: { before: id(RUNS / 2) },
  mode: { mode: 'fork' },
  status: { status: 'running' },
  build: { build: 'experiment-7' },
  scenario: { scenario: '/home/ci/agents/escalations' },
} as const satisfies Record<string, Partial<RunQuery>>;

describePostgres('a page of runs in PostgreSQL', () => {
  let pool: CountingPool;
  let admin: pg.Pool;
  let store: Store;
  const schema = freshSchemaName();

  // RUNS runs a minute apart from 2026-02-01, written by SQL (the store would take a minute): one in twenty a
  // fork, one in five hundred still running, one in a thousand of build experiment-7, and as many of a rare
  // scenario; then the statistics the planner reads, as autovacuum keeps them.
  beforeAll(async () => {
    pool = countingPool();
    store = postgresStore({ pool, schema });
    await store.listRuns();
    admin = adminPool();
    await admin.query(
      `INSERT INTO ${schema}.runs (run_id, mode, agent_name, build, code_hash, scenario, input, status, canonical_form,
         machine_version, created_at)
       SELECT lpad(to_hex(n), 12, '0'),
         CASE WHEN n % 20 = 7 THEN 'fork' WHEN n % 4 = 1 THEN 'replay:strict' ELSE 'record' END,
         'agent',
         CASE WHEN n % 1000 = 333 THEN 'experiment-7' WHEN n % 10 < 3 THEN 'patched' ELSE 'baseline' END,
         'hash',
         CASE WHEN n % 1000 = 555 THEN '/home/ci/agents/escalations' ELSE 'scenarios/claims-triage' END,
         '{}',
         CASE WHEN n % 500 = 77 THEN 'running' WHEN n % 7 = 0 THEN 'failed' ELSE 'completed' END,
         'forkpoint-canonical/1', 1,
         to_char(timestamp '2026-02-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       FROM generate_series(1, ${RUNS}) AS n`,
    );
    await admin.query(`ANALYZE ${schema}.runs`);
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await pool.end();
    await admin.end();
  });

  it('serves every combination of filters through an index, never reading the whole table', async () => {
    const names = Object.keys(VALUES) as Array<keyof typeof VALUES>;
    const client = await admin.connect();
    try {
      await client.query(`SET search_path = ${schema}`);
      for (let mask = 0; mask < 1 << names.length; mask++) {
        const given = names.filter((_, i) => (mask & (1 << i)) !== 0);
        const query = Object.assign({ limit: 51 }, ...given.map((name) => VALUES[name])) as RunQuery;
        pool.reset();
        const runs = await store.queryRuns(query);
        const at = pool.statements.findIndex((text) => text.includes('ORDER BY runs.created_at DESC'));
        expect({ given, found: at >= 0 }).toEqual({ given, found: true });
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (COSTS OFF) ${pool.statements[at]}`,
          pool.values[at] as unknown[],
        );
        const plan = rows.map((row) => row['QUERY PLAN']);
        expect({ given, scans: plan.filter((line) => /Seq Scan/.test(line)) }).toEqual({ given, scans: [] });
        // The page itself is right, whatever the plan: every run matches every filter given.
        for (const run of runs) {
          const matches =
            (query.mode === undefined || run.mode === query.mode) &&
            (query.status === undefined || run.status === query.status) &&
            (query.build === undefined || run.build === query.build) &&
            (query.scenario === undefined || run.scenario === query.scenario) &&
            (query.since === undefined || run.createdAt >= query.since) &&
            (query.until === undefined || run.createdAt < query.until) &&
            (query.before === undefined || run.runId < query.before);
          expect({ given, run: run.runId, matches }).toEqual({ given, run: run.runId, matches: true });
        }
      }
    } finally {
      client.release();
    }
    // The rare scenario's newest runs, a thousand runs apart.
    expect((await store.queryRuns({ limit: 3, scenario: VALUES.scenario.scenario })).map((run) => run.runId)).toEqual([
      id(19_555),
      id(18_555),
      id(17_555),
    ]);
  });
});
