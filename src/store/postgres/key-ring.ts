import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { createPayloadSealer } from '../sealing/payload-sealer.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

// The whole table: a key per expiry day, a few dozen rows at most.
const READ_KEYS = statement('read_keys', 'SELECT key_id, secret FROM export_keys');

/**
 * The PostgreSQL store's tier keys, held in memory for its payload sealer,
 * whose key lookup is synchronous: loaded when the store opens, and read
 * again (one statement) when a payload names a key the ring does not hold, so
 * that a key another process made (a new day) is found, and a warm step or
 * restore costs no round trip for its keys. A key this process deleted goes
 * at once; one another process deleted stays held until this one ends, as a
 * SQLite store keeps the keys it derived.
 */
export interface KeyRing {
  /** Seals and opens payloads with the keys the ring holds. */
  readonly sealer: PayloadSealer;
  /** The secret of key `keyId`, if the ring holds it. */
  secret(keyId: string): Uint8Array | undefined;
  /** Reads every key of the store through `executor` (on a read's snapshot, the keys it sees). */
  refresh(executor: Executor): Promise<void>;
  /** Makes sure the ring holds each of these keys the store has: one refresh when one is missing. */
  cover(executor: Executor, keyIds: Iterable<string | null | undefined>): Promise<void>;
  /** Holds a key the store has just shown or made. */
  hold(keyId: string, secret: Uint8Array): void;
  /** Lets go of keys the store deleted: nothing they sealed opens through this ring any more. */
  drop(keyIds: Iterable<string>): void;
}

/** An empty {@link KeyRing}; the store fills it when it opens. */
export function keyRing(): KeyRing {
  const held = new Map<string, Uint8Array>();
  const sealer = createPayloadSealer({ keys: (keyId) => held.get(keyId) });
  const hold = (keyId: string, secret: Uint8Array): void => {
    const known = held.get(keyId);
    if (known !== undefined && Buffer.compare(known, secret) === 0) return;
    // A key id made anew after its key was deleted: what the sealer derived from the old secret is stale.
    if (known !== undefined) sealer.forget([keyId]);
    held.set(keyId, new Uint8Array(secret));
  };
  const refresh = async (executor: Executor): Promise<void> => {
    for (const row of await executor.rows<{ key_id: string; secret: Buffer }>(READ_KEYS)) hold(row.key_id, row.secret);
  };
  return {
    sealer,
    secret: (keyId) => held.get(keyId),
    refresh,
    async cover(executor, keyIds) {
      for (const keyId of keyIds) {
        if (keyId === null || keyId === undefined || held.has(keyId)) continue;
        await refresh(executor);
        return;
      }
    },
    hold,
    drop(keyIds) {
      const dropped = [...keyIds];
      for (const keyId of dropped) held.delete(keyId);
      sealer.forget(dropped);
    },
  };
}
