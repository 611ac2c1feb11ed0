import { randomBytes } from 'node:crypto';
import { sealingKeyFor } from '../../cassette/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { PayloadBlob } from '../../payload/index.js';
import type { RunRecord } from '../run-record.js';
import type { StepRecord } from '../step-record.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { createPayloadSealer } from '../sealing/payload-sealer.js';
import { runToParams } from '../sqlite/row-mapping.js';
import { columnSeal } from '../sealing/sealed-columns.js';
import type { KeyRing } from './key-ring.js';
import { bytesSeal } from './payload-columns.js';
import type { RunKeys } from './run-keys.js';
import { runKeyIdOf } from './run-keys.js';
import { RUN_COLUMNS } from './run-columns.js';
import {
  BLOB_PARAMETERS,
  REFS_COLUMN,
  STEP_INSERT_TYPES,
  blobColumns,
  insertBlobs,
  insertRowsReach,
  insertSteps,
  stepColumns,
} from './row-values.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

/**
 * SQL: the CTE `lock`, which takes the blob lock (parameter `$1`) shared.
 * Every write that stores or refers to blobs takes it first, before any row
 * lock, so that a purge (which takes it exclusively, also first) never
 * deletes a blob a write is committing a reference to, and the two never
 * wait for each other in a cycle.
 */
export const LOCK = 'lock AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared($1::bigint))';

// The run columns that are not text, for the casts of an insert's parameters.
const RUN_TYPES: Partial<Record<(typeof RUN_COLUMNS)[number], string>> = {
  seed: 'bigint',
  parent_step: 'integer',
  machine_version: 'integer',
  step_count: 'integer',
  owner_pid: 'integer',
  lease_expires_at: 'bigint',
};

// $1: the blob lock; $2.. the run's columns; then its export key (id, a fresh secret, when it is deleted, the
// secret its payloads are sealed with), its blobs (the key id again last) and its rows.
const RUN_VALUES = RUN_COLUMNS.map((column, i) => `$${i + 2}::${RUN_TYPES[column] ?? 'text'}`).join(', ');
const KEY_AT = RUN_COLUMNS.length + 2;
const BLOBS_AT = KEY_AT + 4;
const ROWS_AT = BLOBS_AT + BLOB_PARAMETERS;
// After the rows (one array per step column): a copied run's structural cassette.
const STRUCTURAL_AT = ROWS_AT + STEP_INSERT_TYPES.length;
const STRUCTURAL_EXPIRY = `$${RUN_COLUMNS.indexOf('structural_expires_at') + 2}::text`;

// A run, its export key, its blobs and its rows, in one statement: nothing of it when the id is taken. Its
// payloads come sealed with the secret the writer holds for its day's key (or the fresh one it offers, made
// here when the day has none yet); when the store's key is another (made meanwhile by another process, or
// made anew after the one held was deleted), nothing of the run is written, and the statement says which
// secret the key has, for the writer to seal again with it.
const writeWhole = (also = ''): string => `WITH ${LOCK},
     key_made AS (
       INSERT INTO export_keys (key_id, secret, delete_after)
         SELECT $${KEY_AT}::text, $${KEY_AT + 1}::bytea, $${KEY_AT + 2}::text FROM lock WHERE $${KEY_AT}::text IS NOT NULL
       ON CONFLICT (key_id) DO NOTHING RETURNING secret
     ),
     key_now AS MATERIALIZED (
       SELECT COALESCE((SELECT secret FROM key_made), (SELECT secret FROM export_keys WHERE key_id = $${KEY_AT}::text)) AS secret
     ),
     run AS MATERIALIZED (
       INSERT INTO runs (${RUN_COLUMNS.join(', ')}) SELECT ${RUN_VALUES} FROM lock, key_now
         WHERE $${KEY_AT}::text IS NULL OR key_now.secret = $${KEY_AT + 3}::bytea
       ON CONFLICT (run_id) DO NOTHING RETURNING run_key
     ),
     blobs_stored AS (${insertBlobs(BLOBS_AT)}),
     rows_stored AS (${insertSteps(ROWS_AT)}),
     reach_stored AS (${insertRowsReach(ROWS_AT + REFS_COLUMN)})${also}
     SELECT (SELECT count(*)::integer FROM run) AS created, (SELECT secret FROM key_now) AS secret`;

const SQL = {
  createRun: statement('create_run', writeWhole()),
  // A run copied from another store (importRun), with its structural cassette when it has one.
  importRun: statement(
    'import_run',
    writeWhole(`,
     structural_stored AS (
       INSERT INTO structural_cassettes (run_key, expires_at, body)
         SELECT run_key, ${STRUCTURAL_EXPIRY}, $${STRUCTURAL_AT}::text FROM run WHERE $${STRUCTURAL_AT}::text IS NOT NULL
     )`),
  ),
} as const;

/** What the run writes seal with: the store's keys, and what it knows of its runs' keys. */
export interface RunSealing {
  readonly ring: KeyRing;
  readonly runs: RunKeys;
}

/** A run copied from another store: it brings its structural cassette (null: none). */
export interface CopiedRun {
  readonly structural: string | null;
}

// Attempts at creating a run whose day's key another process makes meanwhile: the second one has its secret.
const CREATE_ATTEMPTS = 3;

/**
 * Writes a whole run in one statement (`createRun`, `writeRun`, `importRun`):
 * the run as stored, its export key (made with its payloads, so that
 * exporting only reads; a purged run copied in has none to seal), its blobs
 * and its rows, all sealed under that key. A run copied from another store
 * (`copied`) brings its structural cassette, and keeps its id: choosing
 * another is no remedy there.
 */
export function wholeRunWrite(
  executor: Executor,
  lock: string,
  location: string,
  sealing: RunSealing,
): (
  record: RunRecord,
  rows: readonly StepRecord[],
  blobs: readonly PayloadBlob[],
  copied?: CopiedRun,
) => Promise<void> {
  const { ring, runs } = sealing;
  const runExists = (runId: string): ForkpointError =>
    new ForkpointError('RUN_EXISTS', `a run with id ${runId} already exists in ${location}`, {
      details: { runId, path: location, remedy: { kind: 'choose-run-id' } },
    });

  return async (record, rows, blobs, copied) => {
    const keyId = runKeyIdOf(record);
    const key = keyId === null || record.expiresAt === null ? undefined : sealingKeyFor(record.expiresAt);
    for (let attempt = 1; ; attempt++) {
      // A fresh secret, offered in case the store has no key for the day: a secret held for a key that
      // was deleted is never offered again, or what it sealed would open again.
      const fresh = key === undefined ? null : randomBytes(32);
      const held = keyId === null ? undefined : ring.secret(keyId);
      const secret = held ?? fresh;
      const sealer: PayloadSealer =
        keyId === null || held !== undefined
          ? ring.sealer
          : createPayloadSealer({ keys: (id) => (id === keyId && fresh !== null ? fresh : undefined) });
      const rowSeal = bytesSeal(sealer, keyId);
      const params = runToParams(record, columnSeal(sealer, keyId));
      const [result] = await executor.rows<{ created: number; secret: Buffer | null }>(
        copied === undefined ? SQL.createRun : SQL.importRun,
        [
          lock,
          ...RUN_COLUMNS.map((column) => params[column] ?? null),
          key?.id ?? null,
          fresh,
          key?.deleteAfter ?? null,
          secret,
          ...blobColumns(blobs, rowSeal, keyId),
          ...stepColumns(rows, rowSeal),
          ...(copied === undefined ? [] : [copied.structural]),
        ],
      );
      const stored = result?.secret ?? null;
      if (keyId === null || secret === null || (stored !== null && Buffer.compare(stored, secret) === 0)) {
        if (keyId !== null && secret !== null) ring.hold(keyId, secret);
        if (result?.created === 1) {
          runs.remember(record);
          return;
        }
        if (copied === undefined) throw runExists(record.runId);
        throw new ForkpointError('RUN_EXISTS', `a run with id ${record.runId} already exists in ${location}`, {
          details: { runId: record.runId, path: location },
        });
      }
      // The day's key is another than the one sealed with: nothing was written. Seal again with the store's.
      if (stored === null) await ring.refresh(executor);
      else ring.hold(keyId, stored);
      if (attempt === CREATE_ATTEMPTS)
        throw new ForkpointError(
          'STORE_BUSY',
          `run ${record.runId} was not created in ${location}: its day's key ${keyId} changed under it ${CREATE_ATTEMPTS} times; run the command again`,
        );
    }
  };
}
