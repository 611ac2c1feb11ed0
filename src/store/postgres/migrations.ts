import type { Migration } from '../sqlite/migration.js';
import { FIRST_SCHEMA } from './migrations-first-schema.js';
import { PAGE_FILTERS } from './migrations-page-filters.js';
import { RUN_SIGNATURES } from './migrations-signatures.js';
import { CHECKPOINT_MIGRATIONS } from './migrations-checkpoint-migration.js';

/** The PostgreSQL schema, as a history: applied in order, once, under an advisory lock. Never edit one: add the next. */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  ...FIRST_SCHEMA,
  ...PAGE_FILTERS,
  ...RUN_SIGNATURES,
  ...CHECKPOINT_MIGRATIONS,
];

/** The newest PostgreSQL schema version this build of forkpoint knows. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.reduce(
  (newest, migration) => Math.max(newest, migration.version),
  0,
);
