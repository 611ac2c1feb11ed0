import { ForkpointError } from '../../errors/index.js';
import type { Synchronous } from '../sqlite/synchronous.js';
import type { Store } from '../store.js';

// STAND-IN (issue 18): the PostgreSQL store (`src/store/postgres`, entry `forkpoint/postgres`) is being written
// on another branch. Until it is merged, this file stands for it with the signature agreed for it, so that
// URL parsing, lazy loading and the CLI's wiring are in place; `load-postgres.ts` is the one place that
// switches to the real module, and this file goes then.

/** The schema the PostgreSQL store uses unless told otherwise (as agreed: `forkpoint`). */
export const DEFAULT_POSTGRES_SCHEMA = 'forkpoint';

/** Options of the PostgreSQL store, as agreed for `postgresStore` (stand-in copy). */
export interface PostgresStoreOptions {
  readonly connectionString?: string;
  readonly schema?: string;
  readonly synchronous?: Synchronous;
  readonly readOnly?: boolean;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  readonly now?: () => Date;
}

/** Refuses, naming what is missing: this build of forkpoint has no PostgreSQL store yet. */
export function postgresStore(options: PostgresStoreOptions): Store {
  throw new ForkpointError(
    'STORE_UNAVAILABLE',
    'this build of forkpoint has no PostgreSQL store yet (issue 18); use a SQLite file path for now',
    { details: { data: { schema: options.schema ?? null } } },
  );
}
