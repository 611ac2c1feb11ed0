import type { PostgresStoreOptions } from './postgres-store-stand-in.js';
import type { PostgresTarget } from '../store-url.js';
import type { Store } from '../store.js';

/** What forkpoint uses of its PostgreSQL store module. */
export interface PostgresModule {
  postgresStore(options: PostgresStoreOptions): Store;
  /** Whether the target's schema holds tables (see `holdsTables`). */
  holdsTables(target: PostgresTarget): Promise<boolean>;
}

/**
 * Loads the PostgreSQL store, and with it `pg`, on first use: a command over
 * a SQLite file never pays for either at start-up.
 */
export async function loadPostgres(): Promise<PostgresModule> {
  // STAND-IN (issue 18): switch to `import('../postgres/index.js')` once the PostgreSQL store is merged.
  const [store, probe] = await Promise.all([import('./postgres-store-stand-in.js'), import('./schema-probe.js')]);
  return { postgresStore: store.postgresStore, holdsTables: (target) => probe.holdsTables(target) };
}
