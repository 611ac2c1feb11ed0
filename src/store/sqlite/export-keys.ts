import type Database from 'better-sqlite3';
import type { SealingKey } from '../../cassette/index.js';

/**
 * The SQLite store's export keys (made with the runs whose day they seal, in
 * `runWrites`): the tier keys that seal exported cassettes, and from which the
 * keys that seal payloads at rest are derived (see `createPayloadSealer`).
 */
export interface ExportKeys {
  read(keyId: string): SealingKey | undefined;
  /** A key's secret alone, for the store's payload sealer. */
  secret(keyId: string): Uint8Array | undefined;
  /** Deletes the keys due at `now` in one immediate transaction (their bytes zeroed by `secure_delete`); returns their ids. */
  drop(now: string): string[];
}

/** Prepares the statements of {@link ExportKeys} on `db`. */
export function exportKeys(db: Database.Database): ExportKeys {
  const readKey = db.prepare('SELECT secret FROM export_keys WHERE key_id = ?').pluck();
  const dropKeys = db.prepare('DELETE FROM export_keys WHERE delete_after <= ? RETURNING key_id').pluck();
  const drop = db.transaction((now: string) => dropKeys.all(now) as string[]);
  const secret = (keyId: string): Uint8Array | undefined => {
    const bytes = readKey.get(keyId) as Buffer | undefined;
    return bytes === undefined ? undefined : new Uint8Array(bytes);
  };
  return {
    read(keyId) {
      const bytes = secret(keyId);
      return bytes === undefined ? undefined : { id: keyId, secret: bytes };
    },
    secret,
    drop: (now) => drop.immediate(now),
  };
}
