import pg from 'pg';
import type { PostgresClient, PostgresPool, PostgresQuery } from '../../src/store/postgres/postgres-pool.js';
import { postgresTestUrl } from './postgres.js';

/** A pool on the test server that lists every statement its clients run, in order. */
export interface CountingPool extends PostgresPool {
  /** The text of every statement run since the last {@link reset}. */
  readonly statements: string[];
  /** The values each of {@link statements} was given, in the same order. */
  readonly values: Array<readonly unknown[]>;
  reset(): void;
  /** Runs before the next statement, with the backend's process id: a test kills the connection there. */
  beforeNextStatement: ((backendPid: number) => Promise<void>) | undefined;
  readonly applicationName: string;
}

/** A {@link CountingPool}, its connections named `applicationName` (so that a test can find their backends). */
export function countingPool(applicationName = `forkpoint-test-${process.pid}`): CountingPool {
  const inner = new pg.Pool({ connectionString: postgresTestUrl(), application_name: applicationName, max: 4 });
  inner.on('error', () => undefined);
  // One wrapper per client, as the store keeps what it set on a connection by the client object.
  const wrappers = new WeakMap<pg.PoolClient, PostgresClient>();
  const pool: CountingPool = {
    statements: [],
    values: [],
    beforeNextStatement: undefined,
    applicationName,
    reset() {
      pool.statements.length = 0;
      pool.values.length = 0;
    },
    async connect() {
      const client = await inner.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = {
          async query(query: PostgresQuery) {
            const hook = pool.beforeNextStatement;
            if (hook !== undefined) {
              pool.beforeNextStatement = undefined;
              await hook((client as pg.PoolClient & { processID: number }).processID);
            }
            pool.statements.push(query.text);
            pool.values.push(query.values ?? []);
            return client.query({
              text: query.text,
              values: query.values as unknown[],
              ...(query.name === undefined ? {} : { name: query.name }),
            });
          },
          release: (error) => {
            client.release(error);
          },
          on: (event, listener) => client.on(event, listener),
          removeListener: (event, listener) => client.removeListener(event, listener),
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => inner.end(),
    options: inner.options,
  };
  return pool;
}
