/**
 * `forkpoint/postgres`: the PostgreSQL store, for a team's shared runs, on
 * node-postgres (`pg`). It takes a connection string, or a pool of your own
 * (typed by what the store calls on it: a `pg.Pool` is one).
 *
 * @example
 * ```ts
 * import { postgresStore } from 'forkpoint/postgres';
 * const store = postgresStore({ connectionString: 'postgres://forkpoint@db.internal:5432/forkpoint', schema: 'team' });
 * ```
 */
export {
  DEFAULT_POSTGRES_SCHEMA,
  postgresStore,
  type PostgresClient,
  type PostgresPool,
  type PostgresPoolOptions,
  type PostgresQuery,
  type PostgresResult,
  type PostgresStoreOptions,
  type Synchronous,
} from '../store/index.js';
