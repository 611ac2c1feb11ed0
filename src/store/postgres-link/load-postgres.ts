import type { PostgresStoreOptions } from '../postgres/postgres-store.js';
import type { PostgresTarget } from '../store-url.js';
import type { Store } from '../store.js';

/** What forkpoint uses of its PostgreSQL store module. */
export interface PostgresModule {
  postgresStore(options: PostgresStoreOptions): Store;
  /** Whether the target's schema holds tables (see `holdsTables`). */
  holdsTables(target: PostgresTarget): Promise<boolean>;
}

/**
 * Loads the PostgreSQL store's connection to a URL, and with it `pg`, on
 * first use: a command over a SQLite file never pays for the driver at
 * start-up.
 */
export async function loadPostgres(): Promise<PostgresModule> {
  const [store, probe] = await Promise.all([import('../postgres/postgres-store.js'), import('./schema-probe.js')]);
  return { postgresStore: store.postgresStore, holdsTables: (target) => probe.holdsTables(target) };
}
