import { randomBytes } from 'node:crypto';
import { ForkpointError } from '../../errors/index.js';
import { readGate, readsEnded } from '../read-gate.js';
import { lineageByRuns, restoreByParts } from '../restore-reads.js';
import type { RetentionPeriods, Store, StoreReader, StoreSettings } from '../store.js';
import { matchesSignedQuery, signedRunOf } from '../signed-run.js';
import { memoryBlobs } from './memory-blobs.js';
import { checkpointChainOf, messagesOf, rowsBetween } from './memory-rows.js';
import type { StoredRun } from './memory-runs.js';
import { byCreation, expiredOf, expiredStructuralOf, pageOf, recordOf } from './memory-runs.js';
import type { MemoryState } from './memory-writes.js';
import { memoryWrites } from './memory-writes.js';
import { asyncRunWrites } from '../sync-run-writes.js';

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** What messages call the store. Default `memory`. */
  readonly location?: string;
  /** The store's id (16 lowercase hex), named by the cassettes it seals. Default: random. */
  readonly storeId?: string;
  /** The retention periods runs made in it get. Default 72 hours and 90 days. */
  readonly retention?: Partial<RetentionPeriods>;
  /** Fresh random bytes, for export keys (and the default store id). Default: `crypto.randomBytes`. */
  readonly randomBytes?: (count: number) => Uint8Array;
}

/**
 * A store in this process's memory, with the SQLite store's semantics:
 * `RUN_EXISTS`, owner tokens and `LEASE_LOST`, `RESUME_REFUSED`, writes that
 * change nothing when they fail, purges that remove exactly the blobs no
 * other run reaches, structural records, settings, export keys and paging.
 * Nothing outlives the process. For tests (a user's, and the engine's own
 * fast ones) and for runs nobody needs to keep. It seals no payload: the
 * file stores seal full-tier payloads at rest so that deleting a day's key
 * shreds whatever a disk still holds, and nothing of this store reaches a
 * disk (its export keys seal exported cassettes as theirs do).
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: memoryStore() });
 * const run = await engine.record({ agent, world, input: { claimId: 'CLM-91077' } });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): Store {
  const random = options.randomBytes ?? ((count: number) => new Uint8Array(randomBytes(count)));
  const state: MemoryState = {
    location: options.location ?? 'memory',
    runs: new Map<string, StoredRun>(),
    blobs: memoryBlobs(),
    keys: new Map(),
    randomBytes: random,
    nextKey: 1,
  };
  let settings: StoreSettings = {
    storeId: options.storeId ?? Buffer.from(random(8)).toString('hex'),
    fullRetentionHours: options.retention?.fullRetentionHours ?? 72,
    structuralRetentionDays: options.retention?.structuralRetentionDays ?? 90,
  };
  const writes = memoryWrites(state);
  const { runs, blobs, keys, location } = state;
  const gate = readGate();
  let closed = false;

  // Every call answers from the state as it is now, or fails as a closed SQLite store does.
  const answer = <T>(work: () => T): Promise<T> => {
    if (closed) return Promise.reject(new ForkpointError('INTERNAL', `the store ${location} is closed`));
    // The executor's throw becomes the promise's rejection, as it is.
    return new Promise((resolve) => {
      resolve(work());
    });
  };
  // A write waits for the reads open on the store, which see one state.
  const write = async <T>(work: () => T): Promise<T> => {
    if (gate.busy) await readsEnded(gate);
    return answer(work);
  };
  const rowsOf = (runId: string) => runs.get(runId)?.rows ?? [];
  const sorted = (list: Iterable<StoredRun>) => [...list].sort(byCreation).map(recordOf);

  const reader: StoreReader = {
    location,
    getRun: (runId) =>
      answer(() => {
        const run = runs.get(runId);
        return run === undefined ? undefined : recordOf(run);
      }),
    listRuns: () => answer(() => sorted(runs.values())),
    queryRuns: (query) => answer(() => pageOf(runs, query).map(recordOf)),
    listSignedRuns: (query) =>
      answer(() =>
        sorted(runs.values()).flatMap((record) => {
          const signed = signedRunOf(record);
          return signed !== undefined && matchesSignedQuery(query, signed.createdAt, signed.signature.digest)
            ? [signed]
            : [];
        }),
      ),
    listChildren: (runId) =>
      answer(() =>
        sorted(
          [...runs.values()].filter(({ record }) => record.parent?.runId === runId || record.sourceRunId === runId),
        ),
      ),
    expiredRuns: (now) => answer(() => expiredOf(runs, now).map(recordOf)),
    expiredStructural: (now) => answer(() => expiredStructuralOf(runs, now)),
    readSteps: (runId, from = 0, to = Number.MAX_SAFE_INTEGER) => answer(() => rowsBetween(rowsOf(runId), from, to)),
    // Its reads cost no round trip: the lineage and a restore's rows are composed of them.
    readLineage(this: StoreReader, runId) {
      return lineageByRuns(this, runId);
    },
    readRestore(this: StoreReader, request) {
      return restoreByParts(this, request);
    },
    readCheckpointChain: (runId, step) => answer(() => checkpointChainOf(rowsOf(runId), step)),
    readMessages: (runId, fromStep, upToStep) => answer(() => messagesOf(rowsOf(runId), blobs, fromStep, upToStep)),
    readBlobs: (digests) => answer(() => blobs.read(digests)),
    readStructural: (runId) => answer(() => runs.get(runId)?.structural?.body),
    settings: () => answer(() => ({ ...settings })),
    exportKey: (keyId) =>
      answer(() => {
        const key = keys.get(keyId);
        return key === undefined ? undefined : { id: keyId, secret: new Uint8Array(key.secret) };
      }),
    // The work reads through the store it was called on (`this`), so that a store wrapping this one sees its reads.
    async read(this: StoreReader, work) {
      if (closed) throw new ForkpointError('INTERNAL', `the store ${location} is closed`);
      gate.enter();
      try {
        return await work(this);
      } finally {
        gate.leave();
      }
    },
  };

  return {
    ...reader,
    ...asyncRunWrites(writes, write),
    saveStructural: (runId, body) =>
      write(() => {
        const run = runs.get(runId);
        if (run === undefined) throw new ForkpointError('INTERNAL', `run ${runId} does not exist`);
        run.structural = { body, expiresAt: run.record.structuralExpiresAt };
      }),
    purgeRuns: (purges) => write(() => writes.purgeRuns(purges)),
    dropStructural: (runIds) =>
      write(() =>
        runIds.reduce((count, runId) => {
          const run = runs.get(runId);
          if (run?.structural === undefined) return count;
          run.structural = undefined;
          return count + 1;
        }, 0),
      ),
    updateSettings: (change) =>
      write(() => {
        settings = {
          ...settings,
          ...(change.fullRetentionHours === undefined ? {} : { fullRetentionHours: change.fullRetentionHours }),
          ...(change.structuralRetentionDays === undefined
            ? {}
            : { structuralRetentionDays: change.structuralRetentionDays }),
        };
        return { ...settings };
      }),
    dropExportKeys: (now) =>
      write(() => {
        let dropped = 0;
        for (const [keyId, key] of keys) {
          if (key.deleteAfter > now) continue;
          key.secret.fill(0);
          keys.delete(keyId);
          dropped++;
        }
        return dropped;
      }),
    // Removed blobs left memory when they were purged: nothing is left to give back.
    compact: () => write(() => undefined),
    close: async () => {
      if (gate.busy) await readsEnded(gate);
      closed = true;
    },
  };
}
