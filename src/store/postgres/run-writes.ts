import { ForkpointError } from '../../errors/index.js';
import type { RunFinish } from '../run-record.js';
import { startedRunRecord } from '../run-record.js';
import type { ResumeClaim, Store } from '../store.js';
import type { RunWriteMethods } from '../sync-run-writes.js';
import { finishToValues, resumeToText } from '../sqlite/row-mapping.js';
import { columnSeal } from '../sealing/sealed-columns.js';
import { bytesSeal } from './payload-columns.js';
import type { PostgresRunRow } from './run-columns.js';
import { LAST_STEP } from './run-columns.js';
import {
  BLOB_PARAMETERS,
  REFS_COLUMN,
  blobColumns,
  insertBlobs,
  insertReach,
  insertStep,
  stepValues,
} from './row-values.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';
import type { RunSealing } from './whole-run-write.js';
import { LOCK, wholeRunWrite } from './whole-run-write.js';

// A step's statement: the lock, the run, its owner, then (the last step's) its ending, its blobs and its row.
const STEP_BLOBS_AT = 4;
const LAST_STEP_BLOBS_AT = 12;

const FINISH_COLUMNS = `status = $4, outcome = $5, error = $6, findings = $7, finished_at = $8, usage = $9,
  signature = $10, signature_digest = $11, owner_pid = NULL, owner_host = NULL, owner_token = NULL, lease_expires_at = NULL`;

const SQL = {
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
     WHERE run_id = $9 AND status = 'running' AND owner_token = $10`,
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
       signature = NULL, signature_digest = NULL, owner_pid = $2::integer, owner_host = $3, owner_token = $4, lease_expires_at = $5::bigint,
       resumes = CASE WHEN resumes IS NULL OR resumes = '[]' THEN '[' || $6::text || ']'
                 ELSE left(resumes, -1) || ',' || $6::text || ']' END
     WHERE run_id = $1 AND status = $7 AND owner_token IS NOT DISTINCT FROM $8::text
       AND lease_expires_at IS NOT DISTINCT FROM $9::bigint`,
  ),
  ownerOf: statement('owner_of', 'SELECT status, resumes FROM runs WHERE run_id = $1'),
} as const;

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
  const create = wholeRunWrite(executor, lock, location, sealing);
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
          signature: finish.signature ?? null,
          owner: null,
          stepCount: rows.reduce((last, row) => Math.max(last, row.step), 0),
        },
        rows,
        blobs,
      ),
  };
}
