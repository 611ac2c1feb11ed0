/**
 * The part of a node-postgres `Pool` that the PostgreSQL store uses. A
 * `pg.Pool` is one; so is any wrapper that hands out its clients (a test's
 * query counter, a pool with its own instrumentation). Typed by what the
 * store calls, so that the package's declarations need no `@types/pg`.
 */
export interface PostgresPool {
  /** Checks a client out; the store releases it when its statement or transaction is done. */
  connect(): Promise<PostgresClient>;
  /** Closes the pool's connections: called only on a pool the store made itself. */
  end(): Promise<void>;
  /** What the pool connects to (a `pg.Pool` keeps its options): the store's `location` says it, without a password. */
  readonly options?: PostgresPoolOptions;
}

/** The connection settings of a pool, as `pg.Pool` keeps them; only those that name the server are read. */
export interface PostgresPoolOptions {
  readonly connectionString?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: number | string | undefined;
  readonly user?: string | undefined;
  readonly database?: string | undefined;
}

/** A client checked out of a {@link PostgresPool}: a `pg.PoolClient`. */
export interface PostgresClient {
  query(query: PostgresQuery): Promise<PostgresResult>;
  /** Back to the pool; with an error, the pool closes the connection instead of keeping it. */
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** One statement: its text, its parameters, and a name under which the connection keeps it prepared. */
export interface PostgresQuery {
  readonly text: string;
  readonly values?: readonly unknown[];
  readonly name?: string;
}

/** What a statement answered. */
export interface PostgresResult {
  readonly rows: readonly unknown[];
  readonly rowCount: number | null;
}
