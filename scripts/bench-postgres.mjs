// The store bench (`npm run bench:postgres`, which builds first): the same synthetic agent (2 KB tool
// results) recorded, restored and forked on SQLite and on a local PostgreSQL server side by side, and
// runs per second with 1, 4 and 16 recorder processes writing into one Postgres schema at once. Needs a
// server: FORKPOINT_TEST_PG=<url> (start one with `scripts/postgres-server.sh start`). Prints a table,
// then, as its last line, one JSON object of the figures. Nothing is asserted.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { createEngine } from '../dist/src/engine/index.js';
import { postgresStore } from '../dist/src/entries/postgres.js';
import { sqliteStore } from '../dist/src/store/index.js';
import { driveBare } from './bench/recording.mjs';
import { fixed, formatTable, heading, informative, machine, targeted } from './bench/report.mjs';
import { INPUT, syntheticAgent, syntheticWorld, toolCallsFor } from './bench/synthetic-agent.mjs';
import { median, msSince, perCall, timeOnce } from './bench/timing.mjs';

const url = process.env.FORKPOINT_TEST_PG;
if (url === undefined) {
  process.stderr.write(
    'bench:postgres needs a server: start one with `scripts/postgres-server.sh start` and set FORKPOINT_TEST_PG to the URL it prints\n',
  );
  process.exit(2);
}

const LENGTHS = [
  { steps: 9, rounds: 61, warmup: 200 },
  { steps: 51, rounds: 25, warmup: 10 },
  { steps: 201, rounds: 15, warmup: 3 },
];
const RECORDERS = [1, 4, 16];
const THROUGHPUT_SECONDS = 4;
const THROUGHPUT_STEPS = 9;

// Every statement a pg client sends is one round trip to the server: counted here, for the restore figure.
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(...args) {
  queries++;
  return query.apply(this, args);
};

const schemaName = () => `bench_${randomBytes(4).toString('hex')}`;
const dropSchemas = async (schemas) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
};

/** Per-step overhead, restores and fork+resume on one store, for each run length. */
async function benchStore(store) {
  const engine = createEngine({ store });
  const figures = {};
  for (const { steps, rounds, warmup } of LENGTHS) {
    const world = syntheticWorld({ toolCalls: toolCallsFor(steps), resultBytes: 2048 });
    const record = async () => {
      const run = await engine.record({ agent: syntheticAgent, world, input: INPUT });
      if (run.status !== 'completed') throw new Error(`the recording ended ${run.status}`);
      return run;
    };
    const overheads = [];
    for (let round = 0; round < warmup + rounds; round++) {
      const bare = await timeOnce(() => driveBare(world));
      const recorded = await timeOnce(record);
      if (round >= warmup) overheads.push((recorded - bare) / steps);
    }
    const run = await record();
    const last = run.steps.length;
    const restoreMs = await perCall(() => engine.checkpoint(run.runId, last), { warmup: 50 });
    const before = queries;
    await engine.checkpoint(run.runId, last);
    const restoreTrips = queries - before;
    const fork = async () => {
      const forked = await engine.fork({
        parentRunId: run.runId,
        atStep: last - 1,
        override: { kind: 'tool-result', output: { echoed: 'changed' } },
        agent: syntheticAgent,
        world,
      });
      if (forked.status !== 'completed') throw new Error(`the fork ended ${forked.status}`);
    };
    await fork();
    const forkMs = [];
    for (let i = 0; i < 11; i++) forkMs.push(await timeOnce(fork));
    figures[steps] = { overheadMs: median(overheads), restoreMs, restoreTrips, forkResumeMs: median(forkMs) };
  }
  await store.close();
  return figures;
}

/** Runs per second of `count` recorder processes writing into one schema at once, started together. */
async function throughput(schema, count) {
  const workers = Array.from({ length: count }, () => {
    const child = spawn(
      process.execPath,
      ['scripts/bench/pg-recorder.mjs', url, schema, String(THROUGHPUT_STEPS), String(THROUGHPUT_SECONDS)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout });
    const next = () => new Promise((resolve) => lines.once('line', resolve));
    return { child, next };
  });
  await Promise.all(
    workers.map(async (worker) => (await worker.next()) === 'ready' || Promise.reject(new Error('a recorder failed'))),
  );
  const results = workers.map((worker) => worker.next());
  for (const worker of workers) worker.child.stdin.end('go\n');
  const reports = (await Promise.all(results)).map((line) => JSON.parse(line));
  const runs = reports.reduce((sum, report) => sum + report.runs, 0);
  const seconds = Math.max(...reports.map((report) => report.ms)) / 1000;
  return { runs, runsPerSecond: runs / seconds };
}

const started = process.hrtime.bigint();
const work = mkdtempSync(join(tmpdir(), 'forkpoint-bench-pg-'));
const schemas = [];
try {
  const sqlite = await benchStore(sqliteStore({ path: join(work, 'bench.db') }));
  const schema = schemaName();
  schemas.push(schema);
  const postgres = await benchStore(postgresStore({ connectionString: url, schema }));
  const concurrent = {};
  for (const count of RECORDERS) {
    const shared = schemaName();
    schemas.push(shared);
    // The schema is made (and migrated) once before the recorders start, as a team's server is.
    await postgresStore({ connectionString: url, schema: shared }).close();
    concurrent[count] = await throughput(shared, count);
  }
  const ms = (value) => `${value.toFixed(3)} ms`;
  const rows = [
    heading(
      'per step, restore and fork+resume: SQLite file (WAL, synchronous NORMAL) | local PostgreSQL (synchronous_commit off)',
    ),
    ...LENGTHS.flatMap(({ steps }) => [
      informative(`record overhead ms/step, ${steps} steps, SQLite`, ms(sqlite[steps].overheadMs)),
      targeted(
        `record overhead ms/step, ${steps} steps, Postgres`,
        ms(postgres[steps].overheadMs),
        '< 1 ms, flat',
        postgres[steps].overheadMs < 1,
      ),
      informative(`restore last checkpoint, ${steps} steps, SQLite`, ms(sqlite[steps].restoreMs)),
      informative(`restore last checkpoint, ${steps} steps, Postgres`, ms(postgres[steps].restoreMs)),
      targeted(
        `restore round trips, ${steps} steps, Postgres`,
        String(postgres[steps].restoreTrips),
        '<= 3',
        postgres[steps].restoreTrips <= 3,
      ),
      informative(`fork at N-1 + resume, ${steps} steps, SQLite`, ms(sqlite[steps].forkResumeMs)),
      informative(`fork at N-1 + resume, ${steps} steps, Postgres`, ms(postgres[steps].forkResumeMs)),
    ]),
    heading(
      `throughput: recorder processes writing ${THROUGHPUT_STEPS}-step runs into one Postgres schema for ${THROUGHPUT_SECONDS} s (${availableParallelism()} cores)`,
    ),
    ...RECORDERS.map((count) =>
      informative(
        `runs/s, ${count} recorder${count === 1 ? '' : 's'}`,
        String(fixed(concurrent[count].runsPerSecond, 1)),
      ),
    ),
  ];
  process.stdout.write(`${machine()}\n${formatTable(rows)}\n`);
  process.stdout.write(`bench:postgres took ${(msSince(started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${JSON.stringify({ sqlite, postgres, concurrent })}\n`);
} finally {
  await dropSchemas(schemas);
  rmSync(work, { recursive: true, force: true });
}
