import type { Migration } from './migration.js';

/** Migration 12: each run's failure signature, kept with the run. */
export const RUN_SIGNATURES: readonly Migration[] = [
  {
    version: 12,
    name: 'failure signatures of runs',
    // A run's failure signature (see src/signature), written when it ends in the finishing UPDATE, so that
    // it outlives the full tier (a purge keeps the summary's columns) and no step pays a write for it. The
    // digest has an index in the order of the listing, so that the runs of one class in a period are found
    // without reading the others. Runs that ended before this migration have none (NULL).
    sql: `
      ALTER TABLE runs ADD COLUMN signature TEXT;
      ALTER TABLE runs ADD COLUMN signature_digest TEXT;
      CREATE INDEX runs_by_signature ON runs (signature_digest, created_at);
    `,
  },
];
