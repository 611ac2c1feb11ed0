import type { Migration } from '../sqlite/migration.js';

/** Migration 3: each run's failure signature, kept with the run. */
export const RUN_SIGNATURES: readonly Migration[] = [
  {
    version: 3,
    name: 'failure signatures of runs',
    // As SQLite's migration 12: the signature written when a run ends, kept when its full tier goes, and its
    // digest indexed in the order of the listing, so that the runs of one class in a period are read alone.
    // ADD COLUMN without a default only changes the catalogue: no table rewrite at any size.
    sql: `
      ALTER TABLE runs ADD COLUMN signature text;
      ALTER TABLE runs ADD COLUMN signature_digest text;
      CREATE INDEX runs_by_signature ON runs (signature_digest, created_at, run_key);
    `,
  },
];
