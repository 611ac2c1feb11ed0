import type { Migration } from './migration.js';

/** Migration 13: what was done to a fork's checkpoint so that its build could continue it. */
export const CHECKPOINT_MIGRATIONS: readonly Migration[] = [
  {
    version: 13,
    name: 'checkpoint migrations of forks',
    // A fork of a checkpoint written by an older machine, or kept under another version of its build's state,
    // records the migrations it applied (versions only, no payload: it outlives the full tier, and needs no
    // sealing). NULL for a fork that needed none, and for every fork made before this migration.
    sql: `ALTER TABLE runs ADD COLUMN checkpoint_migration TEXT;`,
  },
];
