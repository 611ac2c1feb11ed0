import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { sealingKeyFor } from '../../cassette/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { PayloadBlob } from '../../payload/index.js';
import type { NewRunRecord, RunFinish, RunRecord } from '../run-record.js';
import { startedRunRecord } from '../run-record.js';
import type { StepRecord } from '../step-record.js';
import type { ResumeClaim } from '../store.js';
import type { SyncRunWrites } from '../sync-run-writes.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { sealingKeyIdOf } from '../sealing/run-sealing-key.js';
import type { BlobOwnership } from './blob-ownership.js';
import type { RowReads } from './row-reads.js';
import { finishToValues, resumeToText, runToParams } from './row-mapping.js';
import type { ColumnSeal, RowSeal } from '../sealing/sealed-columns.js';
import { columnSeal, rowSeal } from '../sealing/sealed-columns.js';
import { STEP_COLUMNS, stepToValues } from './step-row-mapping.js';
import { LAST_STEP } from './step-ranges.js';

/**
 * The SQLite store's writes of runs and steps, each one immediate
 * transaction (synchronous, as better-sqlite3 is). A step only reads its
 * run's row, and writes its own row and blobs. A full-tier run with an expiry
 * has its payloads sealed under its tier key (see `sealingKeyIdOf`).
 */
export type RunWrites = SyncRunWrites;

const FINISH_COLUMNS = `status = ?, outcome = ?, error = ?, findings = ?, finished_at = ?, usage = ?, signature = ?, signature_digest = ?, owner_pid = NULL, owner_host = NULL,
  owner_token = NULL, lease_expires_at = NULL, step_count = ${LAST_STEP}`;

// How one run's payloads are sealed: its summary's, and its rows'.
interface RunSeals {
  readonly summary: ColumnSeal;
  readonly rows: RowSeal;
}

// The columns of a run that say which key seals its payloads.
interface SealingColumns {
  readonly tier: string;
  readonly expires_at: string | null;
}

/** Prepares the writes of {@link RunWrites} on `db`; `location` names the store in errors. */
export function runWrites(
  db: Database.Database,
  ownership: BlobOwnership,
  reads: RowReads,
  sealer: PayloadSealer,
  location: string,
): RunWrites {
  const statements = {
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, mode, agent_name, build, code_hash, scenario, input, world_at, seed, status, outcome, error,
         parent_run_id, parent_step, override, source_run_id, source_cassette, findings, canonical_form, machine_version, created_at,
         finished_at, step_count, owner_pid, owner_host, owner_token, lease_expires_at, side_effects, resumes, override_changes,
         tier, expires_at, structural_expires_at, purged_at, purge_reason, usage, signature, signature_digest,
         checkpoint_migration)
       VALUES (@run_id, @mode, @agent_name, @build, @code_hash, @scenario, @input, @world_at, @seed, @status, @outcome, @error,
         @parent_run_id, @parent_step, @override, @source_run_id, @source_cassette, @findings, @canonical_form, @machine_version, @created_at,
         @finished_at, @step_count, @owner_pid, @owner_host, @owner_token, @lease_expires_at, @side_effects, @resumes, @override_changes,
         @tier, @expires_at, @structural_expires_at, @purged_at, @purge_reason, @usage, @signature, @signature_digest,
         @checkpoint_migration)`,
    ),
    runExists: db.prepare('SELECT 1 FROM runs WHERE run_id = ?').pluck(),
    insertStep: db.prepare(
      `INSERT INTO steps (row_key, run_key, ${STEP_COLUMNS}) VALUES (?, ?, ${STEP_COLUMNS.replace(/\w+/g, '?')})`,
    ),
    // A step only reads its run's row: rewriting the row's page on every step cost a page a commit. The
    // token makes the read a check that this process still owns the run (IS, for runs written before tokens).
    runningKey: db.prepare(
      "SELECT run_key, tier, expires_at FROM runs WHERE run_id = ? AND status = 'running' AND owner_token IS ?",
    ),
    sealingOf: db.prepare('SELECT tier, expires_at FROM runs WHERE run_id = ?'),
    finishRun: db.prepare(
      `UPDATE runs SET ${FINISH_COLUMNS} WHERE run_id = ? AND status = 'running' AND owner_token IS ?`,
    ),
    finishWrittenRun: db.prepare(`UPDATE runs SET ${FINISH_COLUMNS} WHERE run_id = ? AND status = 'running'`),
    renewLease: db.prepare(
      "UPDATE runs SET lease_expires_at = ? WHERE run_id = ? AND status = 'running' AND owner_token = ?",
    ),
    resumeRun: db.prepare(
      `UPDATE runs SET status = 'running', outcome = NULL, error = NULL, finished_at = NULL, usage = NULL, signature = NULL, signature_digest = NULL,
         owner_pid = @pid, owner_host = @host, owner_token = @token, lease_expires_at = @lease_expires_at,
         resumes = json_insert(COALESCE(resumes, '[]'), '$[#]', json(@resume))
       WHERE run_id = @run_id AND status = @expected_status AND owner_token IS @expected_token AND lease_expires_at IS @expected_lease`,
    ),
    insertStructural: db.prepare('INSERT INTO structural_cassettes (run_key, expires_at, body) VALUES (?, ?, ?)'),
    makeExportKey: db.prepare(
      'INSERT INTO export_keys (key_id, secret, delete_after) VALUES (?, ?, ?) ON CONFLICT (key_id) DO NOTHING',
    ),
  };

  // Every step row goes in sealed, with its blobs' owners and references (see blobOwnership), which are
  // read from its plain text.
  const insertStep = (runKey: number, step: StepRecord, seal: RowSeal): void => {
    statements.insertStep.run(stepToValues(runKey, step, seal));
    ownership.registerRow(runKey, step);
  };
  // A run's summary columns are TEXT and take sealed text; its rows' payload columns take sealed bytes.
  const sealsOf = (keyId: string | null): RunSeals => ({
    summary: columnSeal(sealer, keyId),
    rows: rowSeal(sealer, keyId),
  });
  // Every step asks; a recorder writes one run (one expiry) after another.
  let last: { readonly columns: SealingColumns; readonly keyId: string | null } | undefined;
  const keyIdOf = (columns: SealingColumns): string | null => {
    if (last?.columns.tier !== columns.tier || last.columns.expires_at !== columns.expires_at)
      last = { columns, keyId: sealingKeyIdOf({ tier: columns.tier, expiresAt: columns.expires_at }) };
    return last.keyId;
  };

  // Plain functions, so that writeRun runs them inside its own transaction without a savepoint for each.
  const insertRecord = (
    run: RunRecord,
    blobs: readonly PayloadBlob[],
    copied: boolean,
  ): { runKey: number; seals: RunSeals } => {
    if (statements.runExists.get(run.runId) !== undefined) {
      // A copied run keeps its id: choosing another is no remedy there.
      throw new ForkpointError('RUN_EXISTS', `a run with id ${run.runId} already exists in ${location}`, {
        details: { runId: run.runId, path: location, ...(copied ? {} : { remedy: { kind: 'choose-run-id' } }) },
      });
    }
    // A purged run (copied as it is) keeps a redacted summary in plain text, as a purge leaves it, and no rows.
    const keyId = run.purge === null ? sealingKeyIdOf(run) : null;
    // The key that will seal this run's exports and its payloads at rest is born with them, so that
    // exporting only reads.
    if (keyId !== null && run.expiresAt !== null) {
      const key = sealingKeyFor(run.expiresAt);
      // A key made now may reuse the id of one deleted before: what the sealer derived from that is stale.
      if (statements.makeExportKey.run(key.id, randomBytes(32), key.deleteAfter).changes === 1) sealer.forget([key.id]);
    }
    const seals = sealsOf(keyId);
    const runKey = Number(statements.insertRun.run(runToParams(run, seals.summary)).lastInsertRowid);
    ownership.insertBlobs(runKey, blobs, keyId);
    return { runKey, seals };
  };
  const insertRun = (
    run: NewRunRecord,
    start: StepRecord | null,
    blobs: readonly PayloadBlob[],
  ): { runKey: number; seals: RunSeals } => {
    const inserted = insertRecord(startedRunRecord(run), blobs, false);
    if (start !== null) insertStep(inserted.runKey, start, inserted.seals.rows);
    return inserted;
  };

  // Why a write by the owner of a run found it not running under that owner: another process resumed it
  // (and may have finished it since), or this process is writing a run it already ended, which is a bug.
  const notOwned = (runId: string, what: string): ForkpointError => {
    const row = reads.getRunRow(runId);
    if (row !== undefined && (row.status === 'running' || row.resumes !== null)) {
      return new ForkpointError(
        'LEASE_LOST',
        `run ${runId} was resumed by another process after this one's lease lapsed; ${what}, and this process stops writing it`,
      );
    }
    return new ForkpointError('INTERNAL', `run ${runId} is not running; ${what}`);
  };

  const finishStatement = (runId: string, ownerToken: string, finish: RunFinish, seal: ColumnSeal): void => {
    const changes = statements.finishRun.run(...finishToValues(finish, seal), runId, ownerToken).changes;
    if (changes !== 1) throw notOwned(runId, 'it was not finished by this process');
  };

  const createRun = db.transaction(insertRun);
  const commitStep = db.transaction(
    (runId: string, ownerToken: string, step: StepRecord, blobs: readonly PayloadBlob[], finish?: RunFinish) => {
      const run = statements.runningKey.get(runId, ownerToken) as (SealingColumns & { run_key: number }) | undefined;
      if (run === undefined) throw notOwned(runId, `step ${step.step} was not written`);
      const keyId = keyIdOf(run);
      const seals = sealsOf(keyId);
      ownership.insertBlobs(run.run_key, blobs, keyId);
      insertStep(run.run_key, step, seals.rows);
      if (finish !== undefined) finishStatement(runId, ownerToken, finish, seals.summary);
    },
  );
  // Immediate like every write: an autocommit UPDATE would take the write lock only after reading, and
  // fail with SQLITE_BUSY_SNAPSHOT, which the busy timeout does not retry, if another process wrote between.
  const finishRun = db.transaction((runId: string, ownerToken: string, finish: RunFinish) => {
    const run = statements.sealingOf.get(runId) as SealingColumns | undefined;
    // A run that is not there is refused by the statement itself.
    finishStatement(runId, ownerToken, finish, columnSeal(sealer, run === undefined ? null : keyIdOf(run)));
  });
  const writeRun = db.transaction(
    (run: NewRunRecord, rows: readonly StepRecord[], blobs: readonly PayloadBlob[], finish: RunFinish) => {
      const [start, ...steps] = rows;
      const { runKey, seals } = insertRun(run, start ?? null, blobs);
      for (const step of steps) insertStep(runKey, step, seals.rows);
      const changes = statements.finishWrittenRun.run(...finishToValues(finish, seals.summary), run.runId).changes;
      if (changes !== 1) throw new ForkpointError('INTERNAL', `run ${run.runId} was not written as running`);
    },
  );
  const importRun = db.transaction(
    (run: RunRecord, rows: readonly StepRecord[], blobs: readonly PayloadBlob[], structural?: string) => {
      const { runKey, seals } = insertRecord(run, blobs, true);
      for (const row of rows) insertStep(runKey, row, seals.rows);
      if (structural !== undefined) statements.insertStructural.run(runKey, run.structuralExpiresAt, structural);
    },
  );
  const resumeRun = db.transaction((claim: ResumeClaim) => {
    const changes = statements.resumeRun.run({
      run_id: claim.runId,
      pid: claim.owner.pid,
      host: claim.owner.host,
      token: claim.owner.token,
      lease_expires_at: claim.owner.leaseExpiresAt,
      resume: resumeToText(claim.resume),
      expected_status: claim.expected.status,
      expected_token: claim.expected.ownerToken,
      expected_lease: claim.expected.leaseExpiresAt,
    }).changes;
    if (changes !== 1) {
      throw new ForkpointError(
        'RESUME_REFUSED',
        `run ${claim.runId} changed while it was being resumed (another process resumed it, or its owner renewed its lease); look again with \`forkpoint show ${claim.runId}\``,
      );
    }
  });

  return {
    createRun: (run, start, blobs) => {
      createRun.immediate(run, start, blobs);
    },
    commitStep: (runId, ownerToken, step, blobs, finish) => {
      commitStep.immediate(runId, ownerToken, step, blobs, finish);
    },
    finishRun: (runId, ownerToken, finish) => {
      finishRun.immediate(runId, ownerToken, finish);
    },
    // Autocommit: one UPDATE of one row, which takes the write lock before it reads.
    renewLease: (runId, ownerToken, leaseExpiresAt) =>
      statements.renewLease.run(leaseExpiresAt, runId, ownerToken).changes === 1,
    resumeRun: (claim) => {
      resumeRun.immediate(claim);
    },
    writeRun: (run, rows, blobs, finish) => {
      writeRun.immediate(run, rows, blobs, finish);
    },
    importRun: (run, rows, blobs, structural) => {
      importRun.immediate(run, rows, blobs, structural);
    },
  };
}
