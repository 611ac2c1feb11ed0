import type { Migration } from './migration.js';

/** Migration 9: what a run's model steps used, kept with the run. */
export const RUN_USAGE: readonly Migration[] = [
  {
    version: 9,
    name: 'token totals of each run',
    // A run's tokens by model and provenance, written when it ends (in the finishing UPDATE, so no step
    // pays a write for it), so that a listing prices a page of runs without reading their steps, and a
    // run whose steps expired is still priced. Prices are not stored: a read prices the tokens by the
    // table it is given. Runs that ended before this migration have none (NULL); a read of their steps
    // prices them.
    sql: `ALTER TABLE runs ADD COLUMN usage TEXT;`,
  },
];
