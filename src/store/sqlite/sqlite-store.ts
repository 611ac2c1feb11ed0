import { ForkpointError } from '../../errors/index.js';
import type { JsonValue } from '../../json/index.js';
import { canonicalJson } from '../../json/index.js';
import type { PayloadBlob } from '../../payload/index.js';
import { decodingStored } from '../../payload/index.js';
import type { NewRunRecord, RunFinish, RunRecord } from '../run-record.js';
import type { MessageLog, StepRecord } from '../step-record.js';
import type { FullTierPurge, PurgeCounts, ResumeClaim, Store } from '../store.js';
import type { ReleasedRun } from './blob-ownership.js';
import { blobOwnership } from './blob-ownership.js';
import { closeOverTrees, collectRowReferences, noReferences } from './blob-references.js';
import { compactDatabase } from './compact-database.js';
import type { Synchronous } from './synchronous.js';
import { randomBytes } from 'node:crypto';
import { sealingKeyFor } from '../../cassette/index.js';
import { isEmptyFile } from './empty-file.js';
import { settingsOf } from './store-settings.js';
import { openDatabase } from './open-database.js';
import { runQueries } from './run-queries.js';
import type { RunRow, StepRow } from './row-mapping.js';
import {
  errorToText,
  findingsToText,
  runFromRow,
  runToParams,
  STEP_COLUMNS,
  STEP_KEY_SPAN,
  stepFromRow,
  stepToValues,
} from './row-mapping.js';
import { withSqliteErrors } from './sqlite-errors.js';

/** The database the CLI uses unless told otherwise (`--db`, `FORKPOINT_DB`). */
export const DEFAULT_DB_PATH = 'checkpoints/forkpoint.db';

/** Options of {@link sqliteStore}. */
export interface SqliteStoreOptions {
  /** A file path, or `:memory:`. Default {@link DEFAULT_DB_PATH}. */
  readonly path?: string;
  /**
   * `NORMAL` (default): a killed process loses nothing committed; a power cut
   * may lose the last commits. `FULL`: survives power loss too, at roughly
   * seven times the cost of a commit.
   */
  readonly synchronous?: Synchronous;
  /** How long to wait for another process's write lock. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** The clock stamped on applied migrations. */
  readonly now?: () => Date;
  /**
   * Only read: the file must exist and nothing about it changes (no journal
   * mode switched, no schema created or migrated; SQLite refuses every write).
   * An empty file reads as a store with no runs. Reading commands open this way.
   */
  readonly readOnly?: boolean;
  /** A quota: the most bytes the file may grow to. A write past it fails with `STORE_FULL`, as on a full disk. */
  readonly maxBytes?: number;
}

// Callers name runs by id; their step rows are keyed by the run's integer key (see STEP_KEY_SPAN).
const KEY_OF_RUN = (runId: string): string => `(SELECT run_key FROM runs WHERE run_id = ${runId})`;
// The rows of run `runKey` from step `from` to step `to`: one range of rowids.
const STEPS_OF = (runKey: string, from: string, to: string): string =>
  `row_key BETWEEN ${runKey} * ${STEP_KEY_SPAN} + ${from} AND ${runKey} * ${STEP_KEY_SPAN} + ${to}`;
const LAST_STEP_KEY = STEP_KEY_SPAN - 1;
// Every row of run `runKey`.
const ALL_STEPS_OF = (runKey: string): string => STEPS_OF(runKey, '0', String(LAST_STEP_KEY));
// A run's step count is its last step: stored when it finishes, counted from its rows while it runs.
const LAST_STEP = `COALESCE((SELECT MAX(row_key) FROM steps WHERE ${ALL_STEPS_OF('runs.run_key')}) - runs.run_key * ${STEP_KEY_SPAN}, step_count)`;
const RUN_COLUMNS = `runs.*, CASE WHEN status = 'running' THEN ${LAST_STEP} ELSE step_count END AS step_count`;

// The step columns that refer to blobs, in the order collectRowReferences reads them.
const REFERRING_COLUMNS = 'message_segment, request, response, message, checkpoint';

/**
 * The SQLite store: WAL, explicit `synchronous`, a busy timeout, numbered
 * migrations, and one immediate transaction per step, so a killed process
 * leaves every completed step readable and nothing half written.
 *
 * @example
 * ```ts
 * const store = sqliteStore({ path: 'checkpoints/forkpoint.db' });
 * const runs = store.listRuns();
 * store.close();
 * ```
 */
export function sqliteStore(options: SqliteStoreOptions = {}): Store {
  const location = options.path ?? DEFAULT_DB_PATH;
  const readOnly = options.readOnly === true;
  // An empty file holds no runs: read as such, from a schema in memory, so the file is never written.
  const empty = readOnly && location !== ':memory:' && withSqliteErrors(location, () => isEmptyFile(location));
  const db = openDatabase({
    path: empty ? ':memory:' : location,
    synchronous: options.synchronous ?? 'NORMAL',
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    now: options.now ?? (() => new Date()),
    readOnly: readOnly && !empty,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
  const guarded = <T>(work: () => T): T => withSqliteErrors(location, work);
  // A statement that cannot be prepared (a table changed outside forkpoint) fails the open, which lets go of the file.
  const preparing = <T>(work: () => T): T => {
    try {
      return guarded(work);
    } catch (error) {
      db.close();
      throw error;
    }
  };
  // Step numbers clamped to what a row key can hold, so that a range's ends stay integers.
  const stepRange = (from: number, to: number) => ({ from: Math.max(0, from), to: Math.min(to, LAST_STEP_KEY) });

  const statements = preparing(() => ({
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, mode, agent_name, build, code_hash, scenario, input, world_at, seed, status, outcome, error,
         parent_run_id, parent_step, override, source_run_id, source_cassette, findings, canonical_form, machine_version, created_at,
         finished_at, step_count, owner_pid, owner_host, owner_token, lease_expires_at, side_effects, resumes, override_changes,
         tier, expires_at, structural_expires_at, purged_at, purge_reason)
       VALUES (@run_id, @mode, @agent_name, @build, @code_hash, @scenario, @input, @world_at, @seed, @status, @outcome, @error,
         @parent_run_id, @parent_step, @override, @source_run_id, @source_cassette, @findings, @canonical_form, @machine_version, @created_at,
         @finished_at, @step_count, @owner_pid, @owner_host, @owner_token, @lease_expires_at, @side_effects, @resumes, @override_changes,
         @tier, @expires_at, @structural_expires_at, @purged_at, @purge_reason)`,
    ),
    runExists: db.prepare('SELECT 1 FROM runs WHERE run_id = ?').pluck(),
    insertStep: db.prepare(
      `INSERT INTO steps (row_key, run_key, ${STEP_COLUMNS}) VALUES (?, ?, ${STEP_COLUMNS.replace(/\w+/g, '?')})`,
    ),
    // A step only reads its run's row: rewriting the row's page on every step cost a page a commit. The
    // token makes the read a check that this process still owns the run (IS, for runs written before tokens).
    runningKey: db
      .prepare("SELECT run_key FROM runs WHERE run_id = ? AND status = 'running' AND owner_token IS ?")
      .pluck(),
    finishRun: db.prepare(
      `UPDATE runs SET status = ?, outcome = ?, error = ?, findings = ?, finished_at = ?, owner_pid = NULL, owner_host = NULL,
         owner_token = NULL, lease_expires_at = NULL, step_count = ${LAST_STEP}
       WHERE run_id = ? AND status = 'running' AND owner_token IS ?`,
    ),
    finishWrittenRun: db.prepare(
      `UPDATE runs SET status = ?, outcome = ?, error = ?, findings = ?, finished_at = ?, owner_pid = NULL, owner_host = NULL,
         owner_token = NULL, lease_expires_at = NULL, step_count = ${LAST_STEP}
       WHERE run_id = ? AND status = 'running'`,
    ),
    renewLease: db.prepare(
      "UPDATE runs SET lease_expires_at = ? WHERE run_id = ? AND status = 'running' AND owner_token = ?",
    ),
    resumeRun: db.prepare(
      `UPDATE runs SET status = 'running', outcome = NULL, error = NULL, finished_at = NULL,
         owner_pid = @pid, owner_host = @host, owner_token = @token, lease_expires_at = @lease_expires_at,
         resumes = json_insert(COALESCE(resumes, '[]'), '$[#]', json(@resume))
       WHERE run_id = @run_id AND status = @expected_status AND owner_token IS @expected_token AND lease_expires_at IS @expected_lease`,
    ),
    getRun: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`),
    listRuns: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs ORDER BY created_at, rowid`),
    listChildren: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE parent_run_id = @id OR source_run_id = @id ORDER BY created_at, rowid`,
    ),
    readSteps: db.prepare(
      `SELECT ${STEP_COLUMNS} FROM steps WHERE ${STEPS_OF(KEY_OF_RUN('@run_id'), '@from', '@to')} ORDER BY row_key`,
    ),
    readChain: db.prepare(
      `WITH run AS (SELECT run_key FROM runs WHERE run_id = @run_id)
       SELECT step, checkpoint, checkpoint_full FROM steps
       WHERE row_key BETWEEN (SELECT MAX(row_key) FROM steps WHERE ${STEPS_OF('(SELECT run_key FROM run)', '0', '@step')} AND checkpoint_full = 1)
                         AND (SELECT run_key FROM run) * ${STEP_KEY_SPAN} + @step
         AND EXISTS (SELECT 1 FROM steps WHERE row_key = (SELECT run_key FROM run) * ${STEP_KEY_SPAN} + @step)
       ORDER BY row_key`,
    ),
    // The segments in a range, then one row for the messages after the last of them. A segment covers the
    // rows since the previous segment, the first one since the run's first row: only a range that starts
    // there can use them.
    readSegments: db
      .prepare(
        `WITH run AS (SELECT run_key FROM runs WHERE run_id = @run_id)
       SELECT steps.step, blobs.body FROM steps INDEXED BY steps_with_segments
         JOIN blobs ON blobs.digest = steps.message_segment AND blobs.body IS NOT NULL
       WHERE steps.run_key = (SELECT run_key FROM run) AND steps.step BETWEEN @from AND @to AND steps.message_segment IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM steps WHERE ${STEPS_OF('(SELECT run_key FROM run)', '0', '@from - 1')})
       ORDER BY steps.step`,
      )
      .raw(),
    readMessages: db.prepare(
      `SELECT '[' || COALESCE(group_concat(message, ',' ORDER BY step), '') || ']' AS json,
         json_group_array(message_digest ORDER BY step) AS digests
       FROM steps WHERE ${STEPS_OF(KEY_OF_RUN('@run_id'), '@from', '@to')} AND message IS NOT NULL`,
    ),
    readBlobs: db
      .prepare('SELECT digest, body FROM blobs WHERE digest IN (SELECT value FROM json_each(?)) AND body IS NOT NULL')
      .raw(),
    runKey: db.prepare('SELECT run_key FROM runs WHERE run_id = ?').pluck(),
    runPayloads: db.prepare(`SELECT ${REFERRING_COLUMNS} FROM steps WHERE ${ALL_STEPS_OF('@run_key')}`).raw(),
    deleteSteps: db.prepare(`DELETE FROM steps WHERE ${ALL_STEPS_OF(KEY_OF_RUN('@run_id'))}`),
    redactRun: db.prepare(
      `UPDATE runs SET input = @input, error = @error, override = @override, override_changes = NULL, findings = @findings,
         purged_at = @purged_at, purge_reason = @purge_reason
       WHERE run_id = @run_id AND purged_at IS NULL`,
    ),
    // Keyed by the run's integer key, and carrying its structural expiry, so that gc finds expired ones
    // through an index (migration 7).
    saveStructural: db.prepare(
      `INSERT INTO structural_cassettes (run_key, expires_at, body) SELECT run_key, structural_expires_at, @body FROM runs WHERE run_id = @run_id
       ON CONFLICT (run_key) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at`,
    ),
    readStructural: db.prepare(`SELECT body FROM structural_cassettes WHERE run_key = ${KEY_OF_RUN('?')}`).pluck(),
    dropStructural: db.prepare(`DELETE FROM structural_cassettes WHERE run_key = ${KEY_OF_RUN('?')}`),
    readSettings: db.prepare('SELECT name, value FROM store_settings').raw(),
    writeSetting: db.prepare(
      'INSERT INTO store_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    ),
    makeExportKey: db.prepare(
      'INSERT INTO export_keys (key_id, secret, delete_after) VALUES (?, ?, ?) ON CONFLICT (key_id) DO NOTHING',
    ),
    readExportKey: db.prepare('SELECT secret FROM export_keys WHERE key_id = ?').pluck(),
    dropExportKeys: db.prepare('DELETE FROM export_keys WHERE delete_after <= ?'),
  }));

  const ownership = preparing(() => blobOwnership(db));
  const queries = preparing(() => runQueries(db, RUN_COLUMNS));

  // A purge reads only the purged runs' rows and the blobs they reach: which of those another run still
  // reaches is kept by ownership (migration 6), so the cost is the purged runs', not the database's.
  const purgeRuns = db.transaction((purges: readonly FullTierPurge[]): PurgeCounts => {
    // Tree bodies read once per purge, however many of its runs reach them.
    const bodies = new Map<string, string>();
    const readBodies = (digests: readonly string[]): string[] => {
      const missing = digests.filter((digest) => !bodies.has(digest));
      if (missing.length > 0)
        for (const [digest, body] of statements.readBlobs.all(JSON.stringify(missing)) as Array<[string, string]>)
          bodies.set(digest, body);
      return digests.flatMap((digest) => bodies.get(digest) ?? []);
    };
    const released: ReleasedRun[] = [];
    for (const { runId } of purges) {
      const runKey = statements.runKey.get(runId) as number | undefined;
      if (runKey === undefined) continue;
      const references = noReferences();
      for (const columns of statements.runPayloads.all({ run_key: runKey }) as Array<Array<string | null>>)
        collectRowReferences(columns, references);
      released.push({ runKey, references: closeOverTrees(references, readBodies) });
    }
    let steps = 0;
    for (const { runId, purge, redacted, structural } of purges) {
      if (structural !== undefined) statements.saveStructural.run({ run_id: runId, body: structural });
      steps += statements.deleteSteps.run({ run_id: runId }).changes;
      const changes = statements.redactRun.run({
        run_id: runId,
        input: canonicalJson(redacted.input),
        error: errorToText(redacted.error),
        override: redacted.override === null ? null : canonicalJson(redacted.override),
        findings: findingsToText(redacted.findings),
        purged_at: purge.at,
        purge_reason: purge.reason,
      }).changes;
      if (changes !== 1) throw new ForkpointError('INTERNAL', `run ${runId} does not exist or was purged already`);
    }
    // After the runs are marked purged: a purged run reaches no blob.
    return { steps, blobs: ownership.release(released) };
  });

  // Every step row goes in with its blobs' owners and references (see blobOwnership).
  const insertStep = (runKey: number, step: StepRecord): void => {
    statements.insertStep.run(stepToValues(runKey, step));
    ownership.registerRow(runKey, step);
  };
  // A write's registrations are remembered only once its transaction has committed.
  const writing = <T>(work: () => T): T =>
    guarded(() => {
      try {
        const result = work();
        ownership.settle();
        return result;
      } catch (error) {
        ownership.discard();
        throw error;
      }
    });

  // Plain functions, so that writeRun runs them inside its own transaction without a savepoint for each.
  const insertRun = (run: NewRunRecord, start: StepRecord | null, blobs: readonly PayloadBlob[]): number => {
    if (statements.runExists.get(run.runId) !== undefined) {
      throw new ForkpointError(
        'RUN_EXISTS',
        `a run with id ${run.runId} already exists in ${location}; choose another --run-id`,
      );
    }
    const record: RunRecord = {
      ...run,
      status: 'running',
      outcome: null,
      error: null,
      findings: [],
      finishedAt: null,
      stepCount: 0,
      purge: null,
      resumes: [],
    };
    const runKey = Number(statements.insertRun.run(runToParams(record)).lastInsertRowid);
    // The key that will seal this run's exports is born with its payloads, so that exporting only reads.
    if (run.tier === 'full' && run.expiresAt !== null) {
      const key = sealingKeyFor(run.expiresAt);
      statements.makeExportKey.run(key.id, randomBytes(32), key.deleteAfter);
    }
    ownership.insertBlobs(runKey, blobs);
    if (start !== null) insertStep(runKey, start);
    return runKey;
  };

  const createRun = db.transaction(insertRun);

  const commitStep = db.transaction(
    (
      runId: string,
      ownerToken: string,
      step: StepRecord,
      blobs: readonly PayloadBlob[],
      finish: RunFinish | undefined,
    ) => {
      const runKey = statements.runningKey.get(runId, ownerToken) as number | undefined;
      if (runKey === undefined) throw notOwned(runId, `step ${step.step} was not written`);
      ownership.insertBlobs(runKey, blobs);
      insertStep(runKey, step);
      if (finish !== undefined) finishRunStatement(runId, ownerToken, finish);
    },
  );

  const writeRun = db.transaction(
    (run: NewRunRecord, rows: readonly StepRecord[], blobs: readonly PayloadBlob[], finish: RunFinish) => {
      const [start, ...steps] = rows;
      const runKey = insertRun(run, start ?? null, blobs);
      for (const step of steps) insertStep(runKey, step);
      const changes = statements.finishWrittenRun.run(...finishValues(finish), run.runId).changes;
      if (changes !== 1) throw new ForkpointError('INTERNAL', `run ${run.runId} was not written as running`);
    },
  );

  // Why a write by the owner of a run found it not running under that owner: another process resumed it
  // (and may have finished it since), or this process is writing a run it already ended, which is a bug.
  const notOwned = (runId: string, what: string): ForkpointError => {
    const row = statements.getRun.get(runId) as RunRow | undefined;
    if (row !== undefined && (row.status === 'running' || row.resumes !== null)) {
      return new ForkpointError(
        'LEASE_LOST',
        `run ${runId} was resumed by another process after this one's lease lapsed; ${what}, and this process stops writing it`,
      );
    }
    return new ForkpointError('INTERNAL', `run ${runId} is not running; ${what}`);
  };

  const resumeRun = db.transaction((claim: ResumeClaim) => {
    const changes = statements.resumeRun.run({
      run_id: claim.runId,
      pid: claim.owner.pid,
      host: claim.owner.host,
      token: claim.owner.token,
      lease_expires_at: claim.owner.leaseExpiresAt,
      resume: canonicalJson(claim.resume as unknown as JsonValue),
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

  // Deferred: the read lock comes with the first statement and is held until the end, once for all of them.
  const readTransaction = db.transaction((work: () => unknown) => work());

  // Immediate like every write: an autocommit UPDATE would take the write lock only after reading, and
  // fail with SQLITE_BUSY_SNAPSHOT, which the busy timeout does not retry, if another process wrote between.
  const finishRun = db.transaction((runId: string, ownerToken: string, finish: RunFinish) =>
    finishRunStatement(runId, ownerToken, finish),
  );

  const finishValues = (finish: RunFinish): [string, string | null, string | null, string | null, string] => [
    finish.status,
    finish.outcome === null ? null : canonicalJson(finish.outcome),
    errorToText(finish.error),
    findingsToText(finish.findings),
    finish.finishedAt,
  ];

  const finishRunStatement = (runId: string, ownerToken: string, finish: RunFinish): void => {
    const changes = statements.finishRun.run(...finishValues(finish), runId, ownerToken).changes;
    if (changes !== 1) throw notOwned(runId, 'it was not finished by this process');
  };

  return {
    location,
    createRun: (run, start, blobs) => writing(() => void createRun.immediate(run, start, blobs)),
    commitStep: (runId, ownerToken, step, blobs, finish) =>
      writing(() => commitStep.immediate(runId, ownerToken, step, blobs, finish)),
    finishRun: (runId, ownerToken, finish) => guarded(() => finishRun.immediate(runId, ownerToken, finish)),
    // Autocommit: one UPDATE of one row, which takes the write lock before it reads.
    renewLease: (runId, ownerToken, leaseExpiresAt) =>
      guarded(() => statements.renewLease.run(leaseExpiresAt, runId, ownerToken).changes === 1),
    resumeRun: (claim) => guarded(() => resumeRun.immediate(claim)),
    writeRun: (run, rows, blobs, finish) => writing(() => writeRun.immediate(run, rows, blobs, finish)),
    getRun: (runId) =>
      guarded(() => {
        const row = statements.getRun.get(runId) as RunRow | undefined;
        return row === undefined ? undefined : runFromRow(row);
      }),
    listRuns: () => guarded(() => (statements.listRuns.all() as RunRow[]).map(runFromRow)),
    queryRuns: (query) => guarded(() => queries.page(query)),
    expiredRuns: (now) => guarded(() => queries.expired(now)),
    expiredStructural: (now) => guarded(() => queries.expiredStructural(now)),
    listChildren: (runId) => guarded(() => (statements.listChildren.all({ id: runId }) as RunRow[]).map(runFromRow)),
    readSteps: (runId, from = 0, to = LAST_STEP_KEY) =>
      guarded(() =>
        (statements.readSteps.all({ run_id: runId, ...stepRange(from, to) }) as StepRow[]).map(stepFromRow),
      ),
    readCheckpointChain: (runId, step) =>
      guarded(() =>
        (
          statements.readChain.all({ run_id: runId, step: stepRange(0, step).to }) as Array<
            Pick<StepRow, 'step' | 'checkpoint' | 'checkpoint_full'>
          >
        ).map((row) => ({
          step: row.step,
          checkpoint: row.checkpoint,
          checkpointFull: row.checkpoint_full === 1,
        })),
      ),
    readMessages: (runId, fromStep, upToStep) =>
      guarded((): MessageLog => {
        const range = stepRange(fromStep, upToStep);
        const segmentRows = statements.readSegments.all({ run_id: runId, ...range }) as Array<[number, string]>;
        const after = segmentRows.length === 0 ? range.from - 1 : segmentRows[segmentRows.length - 1]![0];
        const row = statements.readMessages.get({ run_id: runId, from: after + 1, to: range.to }) as {
          json: string;
          digests: string;
        };
        const digests = decodingStored(
          `the message digests of run ${runId}`,
          () => JSON.parse(row.digests) as string[],
        );
        return { segments: segmentRows.map(([, segment]) => segment), json: row.json, digests };
      }),
    readBlobs(digests: readonly string[]): Map<string, string> {
      return guarded(() => {
        return new Map(statements.readBlobs.all(JSON.stringify(digests)) as Array<[string, string]>);
      });
    },
    read: <T>(work: () => T): T => (db.inTransaction ? work() : guarded(() => readTransaction.deferred(work) as T)),
    saveStructural: (runId, body) =>
      guarded(() => {
        if (statements.saveStructural.run({ run_id: runId, body }).changes !== 1)
          throw new ForkpointError('INTERNAL', `run ${runId} does not exist`);
      }),
    readStructural: (runId) => guarded(() => statements.readStructural.get(runId) as string | undefined),
    purgeRuns: (purges) => guarded(() => purgeRuns.immediate(purges)),
    dropStructural: (runIds) =>
      guarded(() =>
        db
          .transaction(() => runIds.reduce((count, runId) => count + statements.dropStructural.run(runId).changes, 0))
          .immediate(),
      ),
    compact: () => guarded(() => compactDatabase(db)),
    settings: () => guarded(() => settingsOf(statements.readSettings.all() as Array<[string, string]>, location)),
    updateSettings: (change) =>
      guarded(() =>
        db
          .transaction(() => {
            if (change.fullRetentionHours !== undefined)
              statements.writeSetting.run('full_retention_hours', String(change.fullRetentionHours));
            if (change.structuralRetentionDays !== undefined)
              statements.writeSetting.run('structural_retention_days', String(change.structuralRetentionDays));
            return settingsOf(statements.readSettings.all() as Array<[string, string]>, location);
          })
          .immediate(),
      ),
    exportKey: (keyId) =>
      guarded(() => {
        const secret = statements.readExportKey.get(keyId) as Buffer | undefined;
        return secret === undefined ? undefined : { id: keyId, secret: new Uint8Array(secret) };
      }),
    dropExportKeys: (now) =>
      guarded(() => db.transaction(() => statements.dropExportKeys.run(now).changes).immediate()),
    close: () => guarded(() => db.close()),
  };
}
