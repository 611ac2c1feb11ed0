/**
 * `forkpoint/postgres`: the PostgreSQL store, for a team's shared runs, on
 * node-postgres (`pg`). It takes a connection string, or a pool of your own
 * (typed by what the store calls on it: a `pg.Pool` is one).
 *
 * @example
 * ```ts
 * import { postgresStore } from 'forkpoint/postgres';
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL, schema: 'forkpoint' });
 * ```
 */
export { DEFAULT_POSTGRES_SCHEMA, postgresStore, type PostgresStoreOptions } from '../store/postgres/postgres-store.js';
export type {
  PostgresClient,
  PostgresPool,
  PostgresPoolOptions,
  PostgresQuery,
  PostgresResult,
} from '../store/postgres/postgres-pool.js';
export type { Synchronous } from '../store/sqlite/synchronous.js';
