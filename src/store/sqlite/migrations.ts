import type { Migration } from './migration.js';
import { FIRST_SCHEMA } from './migrations-first-schema.js';
import { SHARED_STORE } from './migrations-shared-store.js';
import { PAGE_FILTERS } from './migrations-page-filters.js';
import { SEALED_PAYLOADS } from './migrations-sealing.js';
import { RUN_USAGE } from './migrations-usage.js';
import { RUN_SIGNATURES } from './migrations-signatures.js';
import { CHECKPOINT_MIGRATIONS } from './migrations-checkpoint-migration.js';

export type { Migration } from './migration.js';

/**
 * The schema, as a history. Never edit an applied migration: add the next one.
 *
 * Layout (see DESIGN.md, "Checkpoint storage"): `steps` holds one row per
 * observation with the checkpoint after it, keyed by its run's integer key
 * (runs are numbered as they are created) and step, small enough to stay inside the
 * B-tree (payloads over 256 bytes live in `blobs`, stored once by digest and
 * shared by steps, messages and checkpoints). Storage grows linearly with a
 * run's length, and a fork adds rows only for its own tail.
 *
 * `source_run_id` has no foreign key on purpose: a replay of a cassette file
 * names the run it recorded even when that run lives in another database.
 */
export const MIGRATIONS: readonly Migration[] = [
  ...FIRST_SCHEMA,
  ...SHARED_STORE,
  ...RUN_USAGE,
  ...SEALED_PAYLOADS,
  ...PAGE_FILTERS,
  ...RUN_SIGNATURES,
  ...CHECKPOINT_MIGRATIONS,
];

/** The newest schema version this build of forkpoint knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((newest, migration) => Math.max(newest, migration.version), 0);
