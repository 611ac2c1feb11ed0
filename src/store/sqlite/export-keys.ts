import type Database from 'better-sqlite3';
import type { SealingKey } from '../../cassette/index.js';

/** The SQLite store's export keys (made with the runs whose day they seal, in `runWrites`). */
export interface ExportKeys {
  read(keyId: string): SealingKey | undefined;
  /** Deletes the keys due at `now` in one immediate transaction (their bytes zeroed by `secure_delete`). */
  drop(now: string): number;
}

/** Prepares the statements of {@link ExportKeys} on `db`. */
export function exportKeys(db: Database.Database): ExportKeys {
  const readKey = db.prepare('SELECT secret FROM export_keys WHERE key_id = ?').pluck();
  const dropKeys = db.prepare('DELETE FROM export_keys WHERE delete_after <= ?');
  const drop = db.transaction((now: string) => dropKeys.run(now).changes);
  return {
    read(keyId) {
      const secret = readKey.get(keyId) as Buffer | undefined;
      return secret === undefined ? undefined : { id: keyId, secret: new Uint8Array(secret) };
    },
    drop: (now) => drop.immediate(now),
  };
}
