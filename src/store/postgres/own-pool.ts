import type pg from 'pg';
import type { ConnectionSettings } from './postgres-connection.js';
import { JIT, PLAN_CACHE_MODE } from './postgres-connection.js';
import type { PostgresPool } from './postgres-pool.js';

/** How the store's own pool connects. */
export interface OwnPoolOptions {
  readonly connectionString: string;
  readonly connectTimeoutMs: number;
  readonly settings: ConnectionSettings;
  /** The server refuses every write on the pool's connections (`default_transaction_read_only`). */
  readonly readOnly: boolean;
}

/**
 * A node-postgres pool of the store's own, whose connections come set up:
 * their search path, statement timeout, commit durability, plan cache mode
 * and JIT (see {@link PLAN_CACHE_MODE}, {@link JIT}) go in the startup message (libpq's
 * `options`), which costs no round trip. A client
 * side timeout a little past the server's keeps a statement from waiting
 * forever on a server that stopped answering. node-postgres is loaded with
 * the first connection: a program that never opens a PostgreSQL store (the
 * CLI on a SQLite file) does not pay the 40 ms its loading costs here.
 */
export function ownPool(options: OwnPoolOptions): PostgresPool {
  const { settings } = options;
  const startup = [
    `-c search_path=${settings.schema}`,
    `-c statement_timeout=${settings.statementTimeoutMs}`,
    `-c synchronous_commit=${settings.synchronousCommit}`,
    `-c plan_cache_mode=${PLAN_CACHE_MODE}`,
    `-c jit=${JIT}`,
    ...(options.readOnly ? ['-c default_transaction_read_only=on'] : []),
  ];
  let made: Promise<pg.Pool> | undefined;
  const pool = (): Promise<pg.Pool> =>
    (made ??= import('pg').then(({ default: driver }) => {
      const created = new driver.Pool({
        connectionString: options.connectionString,
        connectionTimeoutMillis: options.connectTimeoutMs,
        query_timeout: settings.statementTimeoutMs + options.connectTimeoutMs,
        options: startup.join(' '),
        application_name: 'forkpoint',
        keepAlive: true,
        // A process that forgot to close its store still exits once its connections are idle.
        allowExitOnIdle: true,
      });
      // An idle connection the server closed (a restart, an administrator) is dropped by the pool, which
      // then reports it here: the next statement gets a new connection. Without a listener, the report
      // would kill the process.
      created.on('error', () => undefined);
      return created;
    }));
  return {
    connect: async () => (await pool()).connect(),
    async end() {
      if (made !== undefined) await (await made).end();
    },
    options: { connectionString: options.connectionString },
  };
}
