import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { ForkpointError, isForkpointError } from '../../src/errors/index.js';
import type { JsonObject } from '../../src/json/index.js';
import { errorKindOf } from '../../src/errors/index.js';
import { blobLock } from '../../src/store/postgres/advisory-locks.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import type { PostgresStoreOptions } from '../../src/store/postgres/postgres-store.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import { countingPool } from '../support/counting-pool.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import {
  adminPool,
  describePostgres,
  dropFreshSchemasAfterAll,
  freshSchemaName,
  postgresTestUrl,
} from '../support/postgres.js';

dropFreshSchemasAfterAll();

const PASSWORD = 'wrong-Secret-4711';

/** What the first call on a store made of `options` fails with (the store closed after). */
async function failureOf(options: PostgresStoreOptions): Promise<ForkpointError> {
  const store = postgresStore(options);
  try {
    await store.listRuns();
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    return error;
  } finally {
    await store.close();
  }
  throw new Error('the call did not fail');
}

/** A typed, one-line error of an input kind, that says nothing of `secret`. */
function expectClean(error: ForkpointError, code: string, secret = PASSWORD): void {
  expect(error.code).toBe(code);
  expect(errorKindOf(error.code)).toBe('input');
  expect(error.message).not.toContain('\n');
  expect(error.message).not.toContain(secret);
  expect(JSON.stringify(error.details)).not.toContain(secret);
}

describe('the PostgreSQL store, when it cannot reach its server', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never answers: what a firewalled or hung server looks like.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('says STORE_UNREACHABLE for a port nobody listens on, without the password', async () => {
    // Port 1 on loopback: nothing listens there, and the connection is refused at once.
    const error = await failureOf({ connectionString: `postgres://ana:${PASSWORD}@127.0.0.1:1/forkpoint` });
    expectClean(error, 'STORE_UNREACHABLE');
    expect(error.message).toMatch(
      /^cannot reach the PostgreSQL server of postgres:\/\/ana@127\.0\.0\.1:1\/forkpoint: the connection was refused/,
    );
  });

  it('says STORE_UNREACHABLE for a host name that does not resolve', async () => {
    const error = await failureOf({
      connectionString: `postgres://ana:${PASSWORD}@forkpoint-test.invalid:5432/forkpoint`,
    });
    expectClean(error, 'STORE_UNREACHABLE');
    // Where no resolver answers at all, the connect timeout ends the wait instead.
    expect(error.message).toMatch(/does not resolve|could not be resolved|within the connect timeout/);
  });

  it('says STORE_UNREACHABLE once the connect timeout passes on a server that never answers', async () => {
    const { port } = silent.address() as AddressInfo;
    const error = await failureOf({
      connectionString: `postgres://ana:${PASSWORD}@127.0.0.1:${port}/forkpoint`,
      connectTimeoutMs: 200,
    });
    expectClean(error, 'STORE_UNREACHABLE');
    expect(error.message).toMatch(/did not answer within the connect timeout \(200 ms\)/);
  });

  it('tries again on the next call after a failed connection', async () => {
    const store = postgresStore({ connectionString: `postgres://ana:${PASSWORD}@127.0.0.1:1/forkpoint` });
    await expect(store.listRuns()).rejects.toMatchObject({ code: 'STORE_UNREACHABLE' });
    await expect(store.getRun('0000abcd')).rejects.toMatchObject({ code: 'STORE_UNREACHABLE' });
    await store.close();
  });
});

describePostgres('the PostgreSQL store, on faults of a real server', () => {
  let admin: pg.Pool;
  const url = (): URL => new URL(postgresTestUrl() ?? '');
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await admin.end();
  });

  it('says STORE_UNREACHABLE for a wrong password, naming it, without it', async () => {
    const wrong = url();
    wrong.password = PASSWORD;
    const error = await failureOf({ connectionString: wrong.toString(), schema: freshSchemaName() });
    expectClean(error, 'STORE_UNREACHABLE');
    expect(error.message).toMatch(/refused the password .*check the credentials of the URL$/);
  });

  it('says STORE_UNREACHABLE for an unknown role and for a database that does not exist', async () => {
    const role = url();
    role.username = 'fp_nobody';
    role.password = PASSWORD;
    expectClean(await failureOf({ connectionString: role.toString() }), 'STORE_UNREACHABLE');
    const database = url();
    database.pathname = '/fp_no_such_database';
    const error = await failureOf({ connectionString: database.toString() });
    // The test server's password is its role's name too: the URL's form of it is what must not appear.
    expectClean(error, 'STORE_UNREACHABLE', `:${url().password}@`);
    expect(error.message).toMatch(/has no such database .*fp_no_such_database/);
  });

  it('cancels a statement past the statement timeout with STORE_BUSY, writing nothing', async () => {
    const schema = freshSchemaName();
    const store = postgresStore({ connectionString: url().toString(), schema, statementTimeoutMs: 300 });
    const holder = await admin.connect();
    try {
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      // Another session holds the lock a purge holds: a step waits for it, past the timeout.
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [blobLock(schema)]);
      const blobs = [{ digest: 'stuck', body: '"stuck"' }];
      await expect(store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), blobs)).rejects.toMatchObject({
        code: 'STORE_BUSY',
        message: expect.stringMatching(/statement timeout \(300 ms/),
      });
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [blobLock(schema)]);
      expect(await store.readSteps('0000abcd')).toHaveLength(1);
      expect((await store.readBlobs(['stuck'])).size).toBe(0);
    } finally {
      holder.release();
      await store.close();
    }
  });

  // The backends of a pool of the test's own, by the application name its connections carry.
  const terminate = async (pid: number): Promise<void> => {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // Until the server has let it go: the next statement on that connection then finds it closed.
    while ((await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount !== 0);
  };

  it('says STORE_UNAVAILABLE when a step’s connection is lost; the step is absent, the run resumable, the store usable', async () => {
    const pool = countingPool(`forkpoint-fault-${process.pid}`);
    const store = postgresStore({ pool, schema: freshSchemaName() });
    try {
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(1), []);
      pool.beforeNextStatement = terminate;
      let caught: unknown;
      try {
        await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), [{ digest: 'lost', body: '"lost"' }]);
      } catch (error) {
        caught = error;
      }
      expect(isForkpointError(caught, 'STORE_UNAVAILABLE')).toBe(true);
      expectClean(caught as ForkpointError, 'STORE_UNAVAILABLE', 'forkpoint:forkpoint@');
      // The run is as its last committed step left it: running, with its owner's lease, so it reads as
      // interrupted once the lease lapses, and its owner (or a resume) writes on from step 2.
      expect(await store.getRun('0000abcd')).toMatchObject({
        status: 'running',
        stepCount: 1,
        owner: { token: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1_900_000_000_000 },
      });
      expect((await store.readBlobs(['lost'])).size).toBe(0);
      await store.commitStep('0000abcd', SAMPLE_OWNER_TOKEN, sampleStep(2), []);
      expect((await store.readSteps('0000abcd')).map((row) => row.step)).toEqual([0, 1, 2]);
    } finally {
      await store.close();
      await pool.end();
    }
  });

  it('says STORE_UNAVAILABLE when a read’s connection is lost inside read(), and reads on afterwards', async () => {
    const pool = countingPool(`forkpoint-fault-read-${process.pid}`);
    const store = postgresStore({ pool, schema: freshSchemaName() });
    try {
      await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
      const read = store.read(async (reader) => {
        await reader.getRun('0000abcd');
        const { rows } = await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle in transaction'",
          [pool.applicationName],
        );
        for (const { pid } of rows) await terminate(pid);
        return reader.readSteps('0000abcd');
      });
      await expect(read).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(await store.readSteps('0000abcd')).toHaveLength(1);
      expect(await store.read((reader) => reader.listRuns())).toHaveLength(1);
    } finally {
      await store.close();
      await pool.end();
    }
  });
});

describePostgres('a recording whose PostgreSQL connection is lost mid-run', () => {
  it('stops with STORE_UNAVAILABLE, keeps every committed step, and resumes to the end', async () => {
    const admin = adminPool();
    const pool = countingPool(`forkpoint-fault-run-${process.pid}`);
    const store = postgresStore({ pool, schema: freshSchemaName() });
    try {
      const engine = createEngine({ store, clock: () => new Date('2026-03-04T10:00:00.000Z') });
      const world = syntheticWorld({ toolCalls: 6 });
      let calls = 0;
      // The fourth tool call's commit (step 8) goes out on a connection the server has just ended.
      const cutting = {
        ...world,
        tools: {
          ...world.tools,
          echo: (input: JsonObject) => {
            if (++calls === 4)
              pool.beforeNextStatement = async (pid) => {
                await admin.query('SELECT pg_terminate_backend($1)', [pid]);
                while ((await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount !== 0);
              };
            return world.tools.echo!(input);
          },
        },
      };
      const stopped = await engine.record({ agent: testAgent(), world: cutting, input: { task: 'cut' } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isForkpointError(stopped, 'STORE_UNAVAILABLE')).toBe(true);
      const [run] = await store.listRuns();
      expect(run).toMatchObject({ stepCount: 7 });
      expect((await store.readSteps(run!.runId)).map((row) => row.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      // Ended with the fault (the ending went out on a new connection), which a resume continues.
      expect(run?.error?.code).toBe('STORE_UNAVAILABLE');
      const resumed = await engine.resume({ runId: run!.runId, agent: testAgent(), world });
      expect(resumed.status).toBe('completed');
      expect((await store.getRun(run!.runId))?.stepCount).toBe(13);
    } finally {
      await store.close();
      await pool.end();
      await admin.end();
    }
  });
});
