import { randomBytes } from 'node:crypto';
import { ForkpointError } from '../../errors/index.js';
import type { Synchronous } from '../sqlite/synchronous.js';
import type { Store, StoreReader } from '../store.js';
import { blobLock } from './advisory-locks.js';
import { emptyReads } from './empty-reads.js';
import { keyRing } from './key-ring.js';
import { openSchema } from './open-schema.js';
import { ownPool } from './own-pool.js';
import { postgresConnection } from './postgres-connection.js';
import { translatePostgresError } from './postgres-errors.js';
import { postgresAddress } from './postgres-location.js';
import type { PostgresPool } from './postgres-pool.js';
import { readRestore } from './restore-read.js';
import { retentionWrites } from './retention-writes.js';
import { rowReads } from './row-reads.js';
import { runKeys } from './run-keys.js';
import { runReads } from './run-reads.js';
import { runWrites } from './run-writes.js';
import { settingsAndKeys } from './settings-and-keys.js';
import type { Executor } from './sql-statement.js';

/** The schema a store uses unless told otherwise. */
export const DEFAULT_POSTGRES_SCHEMA = 'forkpoint';

/** Options of {@link postgresStore}: exactly one of `connectionString` and `pool`. */
export interface PostgresStoreOptions {
  /** A `postgres://` URL; the store makes a pool of its own, which `close()` ends. */
  readonly connectionString?: string;
  /**
   * A pool made elsewhere (a `pg.Pool`), which `close()` leaves open. The
   * store sets `search_path`, `statement_timeout`, `synchronous_commit` and
   * `plan_cache_mode` on each of its connections the first time it uses it:
   * a pool shared with other code had better be one of forkpoint's own.
   */
  readonly pool?: PostgresPool;
  /** The schema that holds the store's tables: a lowercase identifier. Default `forkpoint`. */
  readonly schema?: string;
  /**
   * `NORMAL` (default, `synchronous_commit = off`): a killed client loses
   * nothing committed, the server has it; a crash of the server may lose the
   * last fraction of a second of commits, as SQLite's NORMAL may on a power
   * cut. `FULL` (`on`): a commit is on the server's disk before it returns.
   */
  readonly synchronous?: Synchronous;
  /**
   * Only read: nothing is created or migrated, and every write is refused
   * (`USAGE`). A schema without forkpoint's tables reads as a store with no
   * runs. Reading commands open this way.
   */
  readonly readOnly?: boolean;
  /** How long connecting may take before `STORE_UNREACHABLE`. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** How long one statement may run (waiting for locks included) before it is cancelled. Default 30000 ms. */
  readonly statementTimeoutMs?: number;
  /** The clock stamped on applied migrations. */
  readonly now?: () => Date;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The PostgreSQL store, for a team: one database for every engineer's and
 * every service's runs, with the SQLite store's promises. It runs on
 * node-postgres (`pg`): the most used PostgreSQL driver for Node, pure
 * JavaScript (no native build), whose `Pool` is what teams already hold, and
 * what LangGraph's PostgreSQL checkpointer is built on.
 *
 * A step is one statement (its blobs, its row and, for the last, the run's
 * ending), so a killed process leaves every committed step readable and
 * nothing half written; payload blobs are stored once, by digest, and shared
 * across runs; a restore reads the lineage and then the checkpoint's rows
 * with every blob they reach, two statements whatever the step; `read` is one
 * repeatable-read snapshot; a purge never blocks readers. Migrations are
 * numbered, in `schema_migrations`, and run under an advisory lock.
 *
 * Full-tier payloads of runs with an expiry are sealed at rest as the SQLite
 * store seals them (AES-256-GCM under a key derived from the day's export
 * key), so that `gc` deleting the key shreds them whatever the server's files,
 * its write-ahead log or a backup still hold; `compact` rewrites the key table
 * so that a deleted key leaves its data files. The keys are held in memory,
 * read when the store opens and again when a row names one it does not hold.
 *
 * It connects, and migrates, on its first call (so this returns at once, as
 * `sqliteStore` does); a failure to connect is `STORE_UNREACHABLE`, a
 * connection lost on the way `STORE_UNAVAILABLE`, and no message holds the
 * password.
 *
 * @example
 * ```ts
 * const store = postgresStore({ connectionString: 'postgres://forkpoint:secret@db.internal:5432/forkpoint' });
 * const engine = createEngine({ store });
 * const runs = await store.queryRuns({ limit: 20 });
 * await store.close();
 * ```
 */
export function postgresStore(options: PostgresStoreOptions): Store {
  if ((options.connectionString === undefined) === (options.pool === undefined))
    throw new ForkpointError('USAGE', 'postgresStore takes exactly one of `connectionString` and `pool`');
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (!IDENTIFIER.test(schema))
    throw new ForkpointError(
      'USAGE',
      `${JSON.stringify(schema)} is not a schema name postgresStore takes: lowercase letters, digits and underscores, not starting with a digit`,
    );
  const readOnly = options.readOnly === true;
  const address = postgresAddress(
    { connectionString: options.connectionString, pool: options.pool?.options },
    schema,
    DEFAULT_POSTGRES_SCHEMA,
  );
  const { location } = address;
  const errors = {
    address,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    statementTimeoutMs: options.statementTimeoutMs ?? 30_000,
  };
  const settings = {
    schema,
    statementTimeoutMs: errors.statementTimeoutMs,
    synchronousCommit: options.synchronous === 'FULL' ? ('on' as const) : ('off' as const),
  };
  let pool: PostgresPool;
  try {
    pool =
      options.pool ??
      ownPool({
        connectionString: options.connectionString ?? '',
        connectTimeoutMs: errors.connectTimeoutMs,
        settings,
        readOnly,
      });
  } catch (error) {
    throw translatePostgresError(error, errors, 'connect');
  }
  const connection = postgresConnection(pool, { settings, sharedPool: options.pool !== undefined, errors });
  const lock = blobLock(schema);

  // Full-tier payloads are sealed at rest under their day's export key, which the ring holds in memory.
  const ring = keyRing();
  const known = runKeys();
  const readerOver = (executor: Executor): Omit<StoreReader, 'location' | 'read'> => ({
    ...runReads(executor, ring, known),
    ...rowReads(executor, ring),
    ...settingsAndKeys(executor, location, ring),
    readRestore: (request) => readRestore(executor, request, ring),
  });
  const pooled = readerOver(connection.pooled);
  const writes = {
    ...runWrites(connection.pooled, lock, location, { ring, runs: known }),
    ...retentionWrites(connection, lock, errors.statementTimeoutMs),
    ...settingsAndKeys(connection.pooled, location, ring),
  };
  const empty = emptyReads({
    storeId: randomBytes(8).toString('hex'),
    fullRetentionHours: 72,
    structuralRetentionDays: 90,
  });

  // Connected and migrated once, on the first call, and the store's keys read; a failed attempt is
  // forgotten, so a later call tries again.
  let opened: Promise<'empty' | 'ready'> | undefined;
  const open = (): Promise<'empty' | 'ready'> => {
    opened ??= openSchema(
      connection,
      { schema, checkDatabase: options.schema === undefined, location },
      { readOnly, now: options.now ?? (() => new Date()) },
    )
      .then(async (state) => {
        if (state === 'ready') await ring.refresh(connection.pooled);
        return state;
      })
      .catch((error: unknown) => {
        opened = undefined;
        throw error;
      });
    return opened;
  };

  let closed = false;
  const calls = new Set<Promise<unknown>>();
  const call = <T>(work: (state: 'empty' | 'ready') => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new ForkpointError('INTERNAL', `the store ${location} is closed`));
    const done = open().then(work);
    calls.add(done);
    void done.catch(() => undefined).finally(() => calls.delete(done));
    return done;
  };
  const reading = <K extends keyof typeof pooled>(name: K): (typeof pooled)[K] =>
    ((...args: unknown[]) =>
      call((state) => {
        const reads = state === 'empty' ? empty : pooled;
        return (reads[name] as (...given: unknown[]) => Promise<unknown>)(...args);
      })) as (typeof pooled)[K];
  const writing = <K extends keyof typeof writes>(name: K): (typeof writes)[K] =>
    ((...args: unknown[]) =>
      call(() => {
        if (readOnly)
          throw new ForkpointError(
            'USAGE',
            `the store ${location} was opened read-only; ${name} writes, so open it for writing`,
          );
        return (writes[name] as (...given: unknown[]) => Promise<unknown>)(...args);
      })) as (typeof writes)[K];

  // The reader a read's work gets: every statement on the read's one snapshot; a read inside it runs within.
  const snapshotReader = (executor: Executor): StoreReader => {
    const reader: StoreReader = { location, ...readerOver(executor), read: (work) => work(reader) };
    return reader;
  };
  const emptyReader: StoreReader = { location, ...empty, read: (work) => work(emptyReader) };

  return {
    location,
    getRun: reading('getRun'),
    listRuns: reading('listRuns'),
    queryRuns: reading('queryRuns'),
    listSignedRuns: reading('listSignedRuns'),
    readLineage: reading('readLineage'),
    readRestore: reading('readRestore'),
    listChildren: reading('listChildren'),
    expiredRuns: reading('expiredRuns'),
    expiredStructural: reading('expiredStructural'),
    readSteps: reading('readSteps'),
    readCheckpointChain: reading('readCheckpointChain'),
    readMessages: reading('readMessages'),
    readBlobs: reading('readBlobs'),
    readStructural: reading('readStructural'),
    settings: reading('settings'),
    exportKey: reading('exportKey'),
    read: (work) =>
      call((state) =>
        state === 'empty' ? work(emptyReader) : connection.readSnapshot((executor) => work(snapshotReader(executor))),
      ),
    createRun: writing('createRun'),
    commitStep: writing('commitStep'),
    finishRun: writing('finishRun'),
    renewLease: writing('renewLease'),
    resumeRun: writing('resumeRun'),
    writeRun: writing('writeRun'),
    importRun: writing('importRun'),
    saveStructural: writing('saveStructural'),
    purgeRuns: writing('purgeRuns'),
    dropStructural: writing('dropStructural'),
    updateSettings: writing('updateSettings'),
    dropExportKeys: writing('dropExportKeys'),
    compact: writing('compact'),
    async close() {
      if (closed) return;
      closed = true;
      while (calls.size > 0) await Promise.allSettled([...calls]);
      await connection.end();
    },
  };
}
