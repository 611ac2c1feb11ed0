import { ForkpointError } from '../../errors/index.js';
import type { StoreSettings } from '../store.js';

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
