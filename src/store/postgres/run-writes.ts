import { randomBytes } from 'node:crypto';
import { sealingKeyFor } from '../../cassette/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { PayloadBlob } from '../../payload/index.js';
import type { RunFinish, RunRecord } from '../run-record.js';
import { startedRunRecord } from '../run-record.js';
import type { StepRecord } from '../step-record.js';
import type { ResumeClaim, Store } from '../store.js';
import type { RunWriteMethods } from '../sync-run-writes.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { createPayloadSealer } from '../sealing/payload-sealer.js';
import { finishToValues, resumeToText, runToParams } from '../sqlite/row-mapping.js';
import { columnSeal } from '../sqlite/sealed-columns.js';
import type { KeyRing } from './key-ring.js';
import { bytesSeal } from './payload-columns.js';
import type { RunKeys } from './run-keys.js';
import { runKeyIdOf } from './run-keys.js';
import type { PostgresRunRow } from './run-columns.js';
import { LAST_STEP, RUN_COLUMNS } from './run-columns.js';
import {
  BLOB_PARAMETERS,
  REFS_COLUMN,
  blobColumns,
  insertBlobs,
  insertReach,
  insertRowsReach,
  insertStep,
  insertSteps,
  STEP_INSERT_TYPES,
  stepColumns,
  stepValues,
} from './row-values.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

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
// A step's statement: the lock, the run, its owner, then (the last step's) its ending, its blobs and its row.
const STEP_BLOBS_AT = 4;
const LAST_STEP_BLOBS_AT = 10;

// Every write that stores or refers to blobs takes the blob lock shared first, before any row lock, so that
// a purge (which takes it exclusively, also first) never deletes a blob a write is committing a reference
// to, and the two never wait for each other in a cycle.
const LOCK = 'lock AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared($1::bigint))';

const FINISH_COLUMNS = `status = $4, outcome = $5, error = $6, findings = $7, finished_at = $8, usage = $9,
  owner_pid = NULL, owner_host = NULL, owner_token = NULL, lease_expires_at = NULL`;

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
  // A step of a running run, only for its owner: the run's row is locked for share, so that a resume (an
  // UPDATE of that row) waits for the step, or the step for the resume, which then finds another owner.
  commitStep: statement(
    'commit_step',
    `WITH ${LOCK},
     run AS MATERIALIZED (
       SELECT runs.run_key FROM lock, runs WHERE runs.run_id = $2 AND runs.status = 'running' AND runs.owner_token = $3
       FOR SHARE OF runs
     ),
     blobs_stored AS (${insertBlobs(STEP_BLOBS_AT)}),
     row_stored AS (${insertStep(STEP_BLOBS_AT + BLOB_PARAMETERS)} RETURNING 1),
     reach_stored AS (${insertReach(STEP_BLOBS_AT + BLOB_PARAMETERS + REFS_COLUMN)})
     SELECT count(*)::integer AS written FROM row_stored`,
  ),
  // The last step and the run's ending: the UPDATE locks the run's row as the share lock above does. The
  // statement cannot see its own step row, so the step count is the larger of the rows before and it.
  commitLastStep: statement(
    'commit_last_step',
    `WITH ${LOCK},
     run AS MATERIALIZED (
       UPDATE runs SET ${FINISH_COLUMNS},
         step_count = GREATEST((SELECT MAX(step) FROM steps WHERE steps.run_key = runs.run_key), $${LAST_STEP_BLOBS_AT + BLOB_PARAMETERS}::integer)
       FROM lock WHERE runs.run_id = $2 AND runs.status = 'running' AND runs.owner_token = $3
       RETURNING runs.run_key
     ),
     blobs_stored AS (${insertBlobs(LAST_STEP_BLOBS_AT)}),
     row_stored AS (${insertStep(LAST_STEP_BLOBS_AT + BLOB_PARAMETERS)} RETURNING 1),
     reach_stored AS (${insertReach(LAST_STEP_BLOBS_AT + BLOB_PARAMETERS + REFS_COLUMN)})
     SELECT count(*)::integer AS written FROM row_stored`,
  ),
  finishRun: statement(
    'finish_run',
    `UPDATE runs SET ${FINISH_COLUMNS.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) - 3}`)}, step_count = ${LAST_STEP}
     WHERE run_id = $7 AND status = 'running' AND owner_token = $8`,
  ),
  renewLease: statement(
    'renew_lease',
    "UPDATE runs SET lease_expires_at = $3::bigint WHERE run_id = $1 AND status = 'running' AND owner_token = $2",
  ),
  // Only if the run is still exactly as the resumer read it. Resumes are a JSON list kept as text: appended
  // to as text, since jsonb would reject an escaped lone surrogate and reorder the keys.
  resumeRun: statement(
    'resume_run',
    `UPDATE runs SET status = 'running', outcome = NULL, error = NULL, finished_at = NULL, usage = NULL,
       owner_pid = $2::integer, owner_host = $3, owner_token = $4, lease_expires_at = $5::bigint,
       resumes = CASE WHEN resumes IS NULL OR resumes = '[]' THEN '[' || $6::text || ']'
                 ELSE left(resumes, -1) || ',' || $6::text || ']' END
     WHERE run_id = $1 AND status = $7 AND owner_token IS NOT DISTINCT FROM $8::text
       AND lease_expires_at IS NOT DISTINCT FROM $9::bigint`,
  ),
  ownerOf: statement('owner_of', 'SELECT status, resumes FROM runs WHERE run_id = $1'),
} as const;

/** What the run writes seal with: the store's keys, and what it knows of its runs' keys. */
export interface RunSealing {
  readonly ring: KeyRing;
  readonly runs: RunKeys;
}

// Attempts at creating a run whose day's key another process makes meanwhile: the second one has its secret.
const CREATE_ATTEMPTS = 3;

/**
 * The PostgreSQL store's writes of runs and steps: one statement each, in a
 * transaction of its own. A full-tier run with an expiry has its payloads
 * sealed under its day's tier key (see `sealingKeyIdOf`): its summary, its
 * rows' payloads and its blobs' bodies.
 */
export function runWrites(
  executor: Executor,
  lock: string,
  location: string,
  sealing: RunSealing,
): Pick<Store, RunWriteMethods> {
  const { ring, runs } = sealing;
  const runExists = (runId: string): ForkpointError =>
    new ForkpointError('RUN_EXISTS', `a run with id ${runId} already exists in ${location}`, {
      details: { runId, path: location, remedy: { kind: 'choose-run-id' } },
    });

  // Why a write by the owner of a run found it not running under that owner: another process resumed it
  // (and may have finished it since), or this process is writing a run it already ended, which is a bug.
  const notOwned = async (runId: string, what: string): Promise<ForkpointError> => {
    const [row] = await executor.rows<Pick<PostgresRunRow, 'status' | 'resumes'>>(SQL.ownerOf, [runId]);
    if (row !== undefined && (row.status === 'running' || row.resumes !== null)) {
      return new ForkpointError(
        'LEASE_LOST',
        `run ${runId} was resumed by another process after this one's lease lapsed; ${what}, and this process stops writing it`,
      );
    }
    return new ForkpointError('INTERNAL', `run ${runId} is not running; ${what}`);
  };

  // The key a running run's payloads go under, with its secret held: no statement for a run this process
  // made or read, nor for a key it holds.
  const keyOfRun = async (runId: string): Promise<string | null> => {
    const keyId = await runs.of(executor, runId);
    await ring.cover(executor, [keyId]);
    return keyId;
  };

  // A new run's statement: the run as stored, its export key (made with its payloads, so that exporting
  // only reads; a purged run copied in has none to seal), its blobs and its rows, all sealed under that key.
  // A run copied from another store (`copied`) brings its structural cassette, and keeps its id: choosing
  // another is no remedy there.
  const create = async (
    record: RunRecord,
    rows: readonly StepRecord[],
    blobs: readonly PayloadBlob[],
    copied?: { readonly structural: string | null },
  ): Promise<void> => {
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

  return {
    createRun: (run, start, blobs) => create(startedRunRecord(run), start === null ? [] : [start], blobs),
    async commitStep(runId, ownerToken, step, blobs, finish) {
      const keyId = await keyOfRun(runId);
      const rowSeal = bytesSeal(ring.sealer, keyId);
      const [result] =
        finish === undefined
          ? await executor.rows<{ written: number }>(SQL.commitStep, [
              lock,
              runId,
              ownerToken,
              ...blobColumns(blobs, rowSeal, keyId),
              ...stepValues(step, rowSeal),
            ])
          : await executor.rows<{ written: number }>(SQL.commitLastStep, [
              lock,
              runId,
              ownerToken,
              ...finishToValues(finish, columnSeal(ring.sealer, keyId)),
              ...blobColumns(blobs, rowSeal, keyId),
              ...stepValues(step, rowSeal),
            ]);
      if (result?.written !== 1) throw await notOwned(runId, `step ${step.step} was not written`);
    },
    async finishRun(runId, ownerToken, finish) {
      const keyId = await keyOfRun(runId);
      const changed = await executor.count(SQL.finishRun, [
        ...finishToValues(finish, columnSeal(ring.sealer, keyId)),
        runId,
        ownerToken,
      ]);
      if (changed !== 1) throw await notOwned(runId, 'it was not finished by this process');
    },
    renewLease: async (runId, ownerToken, leaseExpiresAt) =>
      (await executor.count(SQL.renewLease, [runId, ownerToken, leaseExpiresAt])) === 1,
    async resumeRun(claim: ResumeClaim) {
      const changed = await executor.count(SQL.resumeRun, [
        claim.runId,
        claim.owner.pid,
        claim.owner.host,
        claim.owner.token,
        claim.owner.leaseExpiresAt,
        resumeToText(claim.resume),
        claim.expected.status,
        claim.expected.ownerToken,
        claim.expected.leaseExpiresAt,
      ]);
      if (changed !== 1) {
        throw new ForkpointError(
          'RESUME_REFUSED',
          `run ${claim.runId} changed while it was being resumed (another process resumed it, or its owner renewed its lease); look again with \`forkpoint show ${claim.runId}\``,
        );
      }
    },
    // As it is in the store it comes from: its owner too, when it is a running (interrupted) run.
    importRun: (run, rows, blobs, structural) =>
      create({ ...run, owner: run.status === 'running' ? run.owner : null }, rows, blobs, {
        structural: structural ?? null,
      }),
    // A whole run goes in as it ended: its rows, and no owner.
    writeRun: (run, rows, blobs, finish: RunFinish) =>
      create(
        {
          ...startedRunRecord(run),
          status: finish.status,
          outcome: finish.outcome,
          error: finish.error,
          findings: finish.findings ?? [],
          finishedAt: finish.finishedAt,
          usage: finish.usage ?? null,
          owner: null,
          stepCount: rows.reduce((last, row) => Math.max(last, row.step), 0),
        },
        rows,
        blobs,
      ),
  };
}
