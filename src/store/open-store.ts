import { existsSync } from 'node:fs';
import { loadPostgres } from './postgres-link/load-postgres.js';
import { sqliteStore } from './sqlite/sqlite-store.js';
import type { Synchronous } from './sqlite/synchronous.js';
import type { Store } from './store.js';
import type { StoreTarget } from './store-url.js';
import { parseStoreUrl } from './store-url.js';

/** Options of {@link openStore}, for whichever store the URL picks. */
export interface OpenStoreOptions {
  /**
   * Only read: nothing about the store changes (no file or schema created,
   * nothing migrated). A SQLite file must exist; an empty one reads as a
   * store with no runs.
   */
  readonly readOnly?: boolean;
  /** How durable a commit is: `NORMAL` (default) or `FULL` (survives power loss, slower). */
  readonly synchronous?: Synchronous;
  /** The clock stamped on applied migrations. */
  readonly now?: () => Date;
}

/**
 * Opens the store a URL names: `postgres://` or `postgresql://` a
 * PostgreSQL database (`?schema=name` picks the schema, default the store's
 * own), a `file://` URL or any other text a SQLite file (`:memory:` too).
 * The PostgreSQL store and its driver are loaded only when a URL asks for
 * them. A URL of another scheme is refused (`USAGE`); no message shows a
 * URL's password.
 *
 * @example
 * ```ts
 * const store = await openStore(process.env.FORKPOINT_DB ?? 'checkpoints/forkpoint.db');
 * const engine = createEngine({ store });
 * ```
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  return await openTarget(parseStoreUrl(url), options);
}

/** Opens a target {@link parseStoreUrl} read (see {@link openStore}). */
export async function openTarget(target: StoreTarget, options: OpenStoreOptions = {}): Promise<Store> {
  const common = {
    ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
    ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
  if (target.kind === 'sqlite') return sqliteStore({ path: target.path, ...common });
  const postgres = await loadPostgres();
  return postgres.postgresStore({
    connectionString: target.connectionString,
    ...(target.schema === undefined ? {} : { schema: target.schema }),
    ...common,
  });
}

/**
 * Whether the store a target names exists, without creating anything: a
 * SQLite file (`:memory:` always does), or a PostgreSQL schema that holds
 * tables. An unreachable server fails with `STORE_UNREACHABLE`.
 */
export async function storeExists(target: StoreTarget): Promise<boolean> {
  if (target.kind === 'sqlite') return target.path === ':memory:' || existsSync(target.path);
  return await (await loadPostgres()).holdsTables(target);
}
