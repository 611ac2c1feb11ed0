import type { Store, StoreReader } from '../store.js';
import { readGate, readsEnded } from '../read-gate.js';
import { lineageByRuns, restoreByParts } from '../restore-reads.js';
import { blobOwnership } from './blob-ownership.js';
import { compactDatabase } from './compact-database.js';
import type { Synchronous } from './synchronous.js';
import { isEmptyFile } from './empty-file.js';
import { exportKeys } from './export-keys.js';
import { openDatabase } from './open-database.js';
import { retentionWrites } from './retention-writes.js';
import { rowReads } from './row-reads.js';
import { runQueries } from './run-queries.js';
import { runWrites } from './run-writes.js';
import { translateSqliteError, withSqliteErrors } from './sqlite-errors.js';
import { RUN_COLUMNS } from './step-ranges.js';
import { settingsTable } from './store-settings.js';
import { asyncRunWrites } from '../sync-run-writes.js';
import { createPayloadSealer } from '../sealing/payload-sealer.js';

/** The database the CLI uses unless told otherwise (`--db`, `FORKPOINT_DB`). */
export const DEFAULT_DB_PATH = 'checkpoints/forkpoint.db';

/** Options of {@link sqliteStore}. */
export interface SqliteStoreOptions {
  /** A file path, or `:memory:`. Default {@link DEFAULT_DB_PATH}. */
  readonly path?: string;
  /**
   * `NORMAL` (default): a killed process loses nothing committed; a power cut
   * may lose the last commits. `FULL`: survives power loss too, at roughly
   * seven times the cost of a commit.
   */
  readonly synchronous?: Synchronous;
  /** How long to wait for another process's write lock. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** The clock stamped on applied migrations. */
  readonly now?: () => Date;
  /**
   * Only read: the file must exist and nothing about it changes (no journal
   * mode switched, no schema created or migrated; SQLite refuses every write).
   * An empty file reads as a store with no runs. Reading commands open this way.
   */
  readonly readOnly?: boolean;
  /** A quota: the most bytes the file may grow to. A write past it fails with `STORE_FULL`, as on a full disk. */
  readonly maxBytes?: number;
}

/**
 * The SQLite store: WAL, explicit `synchronous`, a busy timeout, numbered
 * migrations, and one immediate transaction per step, so a killed process
 * leaves every completed step readable and nothing half written. Full-tier
 * payloads of runs with an expiry are sealed at rest (AES-256-GCM, under a key
 * derived from the day's export key, see `createPayloadSealer`), so that `gc`
 * deleting the key shreds them whatever the file, its log or a copy still
 * holds; `secure_delete` zeroes what a purge deletes besides. The file is
 * opened (and migrated) when the store is made. better-sqlite3 is
 * synchronous: every promise this store returns is settled by the time the
 * call returns, at the cost of a microtask.
 *
 * @example
 * ```ts
 * const store = sqliteStore({ path: 'checkpoints/forkpoint.db' });
 * const runs = await store.listRuns();
 * await store.close();
 * ```
 */
export function sqliteStore(options: SqliteStoreOptions = {}): Store {
  const location = options.path ?? DEFAULT_DB_PATH;
  const readOnly = options.readOnly === true;
  // An empty file holds no runs: read as such, from a schema in memory, so the file is never written.
  const empty = readOnly && location !== ':memory:' && withSqliteErrors(location, () => isEmptyFile(location));
  const db = openDatabase({
    path: empty ? ':memory:' : location,
    synchronous: options.synchronous ?? 'NORMAL',
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    now: options.now ?? (() => new Date()),
    readOnly: readOnly && !empty,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
  // A statement that cannot be prepared (a table changed outside forkpoint) fails the open, which lets go of the file.
  const preparing = <T>(work: () => T): T => {
    try {
      return withSqliteErrors(location, work);
    } catch (error) {
      db.close();
      throw error;
    }
  };
  const { ownership, reads, writes, retention, queries, settings, keys, sealer } = preparing(() => {
    const keys = exportKeys(db);
    // Full-tier payloads are sealed at rest under their day's export key, read in the transaction at hand.
    const sealer = createPayloadSealer({ keys: (keyId) => keys.secret(keyId) });
    const ownership = blobOwnership(db, sealer);
    const reads = rowReads(db, sealer);
    return {
      ownership,
      reads,
      writes: runWrites(db, ownership, reads, sealer, location),
      retention: retentionWrites(db, ownership, sealer),
      queries: runQueries(db, RUN_COLUMNS, sealer),
      settings: settingsTable(db, location),
      keys,
      sealer,
    };
  });

  // A read's work awaits between its statements, inside one deferred transaction that overlapping reads
  // share; the read lock comes with its first statement and is held until the last read ends.
  const gate = readGate();
  const answer = <T>(work: () => T): Promise<T> => {
    // The executor's throw becomes the promise's rejection, as it is.
    return new Promise((resolve) => {
      resolve(withSqliteErrors(location, work));
    });
  };
  // A write waits for this connection's reads; its registrations are remembered only once it has committed.
  const write = async <T>(work: () => T): Promise<T> => {
    if (gate.busy) await readsEnded(gate);
    return withSqliteErrors(location, () => {
      try {
        const result = work();
        ownership.settle();
        return result;
      } catch (error) {
        ownership.discard();
        throw error;
      }
    });
  };

  const reader: StoreReader = {
    location,
    getRun: (runId) => answer(() => reads.getRun(runId)),
    listRuns: () => answer(() => reads.listRuns()),
    queryRuns: (query) => answer(() => queries.page(query)),
    listSignedRuns: (query) => answer(() => queries.signed(query)),
    listChildren: (runId) => answer(() => reads.listChildren(runId)),
    expiredRuns: (now) => answer(() => queries.expired(now)),
    expiredStructural: (now) => answer(() => queries.expiredStructural(now)),
    readSteps: (runId, from, to) => answer(() => reads.readSteps(runId, from, to)),
    // Its reads cost no round trip: the lineage and a restore's rows are composed of them.
    readLineage(this: StoreReader, runId) {
      return lineageByRuns(this, runId);
    },
    readRestore(this: StoreReader, request) {
      return restoreByParts(this, request);
    },
    readCheckpointChain: (runId, step) => answer(() => reads.readCheckpointChain(runId, step)),
    readMessages: (runId, fromStep, upToStep) => answer(() => reads.readMessages(runId, fromStep, upToStep)),
    readBlobs: (digests) => answer(() => reads.readBlobs(digests)),
    readStructural: (runId) => answer(() => reads.readStructural(runId)),
    settings: () => answer(() => settings.read()),
    exportKey: (keyId) => answer(() => keys.read(keyId)),
    // The work reads through the store it was called on (`this`), so that a store wrapping this one sees its reads.
    async read(this: StoreReader, work) {
      if (gate.enter()) {
        try {
          withSqliteErrors(location, () => db.exec('BEGIN DEFERRED'));
        } catch (error) {
          gate.leave();
          throw error;
        }
      }
      try {
        return await work(this);
      } finally {
        // A failed COMMIT of a transaction that only read leaves nothing to undo.
        if (gate.leave() && db.inTransaction) withSqliteErrors(location, () => db.exec('COMMIT'));
      }
    },
  };

  return {
    ...reader,
    ...asyncRunWrites(writes, write),
    saveStructural: (runId, body) =>
      write(() => {
        retention.saveStructural(runId, body);
      }),
    purgeRuns: (purges) => write(() => retention.purgeRuns(purges)),
    dropStructural: (runIds) => write(() => retention.dropStructural(runIds)),
    updateSettings: (change) => write(() => settings.update(change)),
    dropExportKeys: (now) =>
      write(() => {
        const dropped = keys.drop(now);
        // What this process derived from them goes too: from now on nothing it sealed opens here either.
        sealer.forget(dropped);
        return dropped.length;
      }),
    async compact() {
      try {
        await compactDatabase(db, () => readsEnded(gate));
      } catch (error) {
        throw translateSqliteError(error, location);
      }
    },
    async close() {
      await readsEnded(gate);
      withSqliteErrors(location, () => db.close());
    },
  };
}
