import type { Store } from '../store.js';
import { settingsOf } from '../sqlite/store-settings.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

const SQL = {
  settings: statement('settings', 'SELECT name, value FROM store_settings'),
  // The rows changed, and the others as they were: the statement cannot see its own writes.
  updateSettings: statement(
    'update_settings',
    `WITH changed AS (
       INSERT INTO store_settings (name, value) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (name) DO UPDATE SET value = excluded.value RETURNING name, value
     )
     SELECT name, value FROM changed
     UNION ALL SELECT name, value FROM store_settings WHERE name NOT IN (SELECT name FROM changed)`,
  ),
  exportKey: statement('export_key', 'SELECT secret FROM export_keys WHERE key_id = $1'),
  dropExportKeys: statement('drop_export_keys', 'DELETE FROM export_keys WHERE delete_after <= $1'),
} as const;

/** The PostgreSQL store's settings and export keys: one statement each. */
export function settingsAndKeys(
  executor: Executor,
  location: string,
): Pick<Store, 'settings' | 'updateSettings' | 'exportKey' | 'dropExportKeys'> {
  const settingsFrom = (rows: ReadonlyArray<{ name: string; value: string }>) =>
    settingsOf(
      rows.map((row) => [row.name, row.value] as const),
      location,
    );
  return {
    settings: async () => settingsFrom(await executor.rows(SQL.settings)),
    async updateSettings(change) {
      const names: string[] = [];
      const values: string[] = [];
      if (change.fullRetentionHours !== undefined) {
        names.push('full_retention_hours');
        values.push(String(change.fullRetentionHours));
      }
      if (change.structuralRetentionDays !== undefined) {
        names.push('structural_retention_days');
        values.push(String(change.structuralRetentionDays));
      }
      return settingsFrom(await executor.rows(SQL.updateSettings, [names, values]));
    },
    async exportKey(keyId) {
      const [row] = await executor.rows<{ secret: Uint8Array }>(SQL.exportKey, [keyId]);
      return row === undefined ? undefined : { id: keyId, secret: new Uint8Array(row.secret) };
    },
    // PostgreSQL cannot zero a deleted row: its bytes stay in the table's pages until a vacuum (`compact`)
    // frees the space and a later write reuses it.
    dropExportKeys: (now) => executor.count(SQL.dropExportKeys, [now]),
  };
}
