import { ForkpointError } from '../../errors/index.js';
import type Database from 'better-sqlite3';
import type { RetentionPeriods, StoreSettings } from '../store.js';

/** Reads the `store_settings` rows; one missing or not a positive number is `STORE_CORRUPT`. */
export function settingsOf(rows: ReadonlyArray<readonly [string, string]>, location: string): StoreSettings {
  const values = new Map(rows);
  const positive = (name: string): number => {
    const value = Number(values.get(name));
    if (!(Number.isFinite(value) && value > 0))
      throw new ForkpointError(
        'STORE_CORRUPT',
        `${location} has no valid ${name} setting (${JSON.stringify(values.get(name) ?? null)})`,
      );
    return value;
  };
  const storeId = values.get('store_id');
  if (storeId === undefined || !/^[0-9a-f]{16}$/.test(storeId))
    throw new ForkpointError('STORE_CORRUPT', `${location} has no valid store_id setting`);
  return {
    storeId,
    fullRetentionHours: positive('full_retention_hours'),
    structuralRetentionDays: positive('structural_retention_days'),
  };
}

/** The SQLite store's settings: read, and changed in one immediate transaction. */
export interface SettingsTable {
  read(): StoreSettings;
  update(change: Partial<RetentionPeriods>): StoreSettings;
}

/** Prepares the statements of {@link SettingsTable} on `db`; `location` names the store in errors. */
export function settingsTable(db: Database.Database, location: string): SettingsTable {
  const readSettings = db.prepare('SELECT name, value FROM store_settings').raw();
  const writeSetting = db.prepare(
    'INSERT INTO store_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  const read = (): StoreSettings => settingsOf(readSettings.all() as Array<[string, string]>, location);
  const update = db.transaction((change: Partial<RetentionPeriods>) => {
    if (change.fullRetentionHours !== undefined)
      writeSetting.run('full_retention_hours', String(change.fullRetentionHours));
    if (change.structuralRetentionDays !== undefined)
      writeSetting.run('structural_retention_days', String(change.structuralRetentionDays));
    return read();
  });
  return { read, update: (change) => update.immediate(change) };
}
