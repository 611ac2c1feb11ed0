import type { Migration } from '../sqlite/migration.js';

/** Migration 4: what was done to a fork's checkpoint so that its build could continue it. */
export const CHECKPOINT_MIGRATIONS: readonly Migration[] = [
  {
    version: 4,
    name: 'checkpoint migrations of forks',
    // As SQLite's migration 13: versions only, no payload. ADD COLUMN without a default rewrites no table.
    sql: `ALTER TABLE runs ADD COLUMN checkpoint_migration text;`,
  },
];
