import type Database from 'better-sqlite3';
import type { RunRecord } from '../run-record.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import type { StoredBody } from './blob-ownership.js';
import type { CheckpointRow, MessageLog, StepRecord } from '../step-record.js';
import type { RunRow } from './row-mapping.js';
import type { StepRow, StoredPayload } from './step-row-mapping.js';
import { runFromRow } from './row-mapping.js';
import { STEP_COLUMNS, STEP_KEY_SPAN, stepFromRow } from './step-row-mapping.js';
import { keyOfRun, LAST_STEP_KEY, RUN_COLUMNS, stepRange, stepsOf } from './step-ranges.js';

/** The SQLite store's reads of runs, rows and blobs, synchronous as better-sqlite3 is. */
export interface RowReads {
  getRun(runId: string): RunRecord | undefined;
  /** The row itself: a write that finds its run not as it expected says why from it. */
  getRunRow(runId: string): RunRow | undefined;
  listRuns(): RunRecord[];
  listChildren(runId: string): RunRecord[];
  readSteps(runId: string, from?: number, to?: number): StepRecord[];
  readCheckpointChain(runId: string, step: number): CheckpointRow[];
  readMessages(runId: string, fromStep: number, upToStep: number): MessageLog;
  readBlobs(digests: readonly string[]): Map<string, string>;
  readStructural(runId: string): string | undefined;
}

/** Prepares the reads of {@link RowReads} on `db`; what they read comes back opened by `sealer`. */
export function rowReads(db: Database.Database, sealer: PayloadSealer): RowReads {
  const statements = {
    getRun: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`),
    listRuns: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs ORDER BY created_at, rowid`),
    listChildren: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE parent_run_id = @id OR source_run_id = @id ORDER BY created_at, rowid`,
    ),
    readSteps: db.prepare(
      `SELECT ${STEP_COLUMNS} FROM steps WHERE ${stepsOf(keyOfRun('@run_id'), '@from', '@to')} ORDER BY row_key`,
    ),
    readChain: db.prepare(
      `WITH run AS (SELECT run_key FROM runs WHERE run_id = @run_id)
       SELECT step, checkpoint, checkpoint_full FROM steps
       WHERE row_key BETWEEN (SELECT MAX(row_key) FROM steps WHERE ${stepsOf('(SELECT run_key FROM run)', '0', '@step')} AND checkpoint_full = 1)
                         AND (SELECT run_key FROM run) * ${STEP_KEY_SPAN} + @step
         AND EXISTS (SELECT 1 FROM steps WHERE row_key = (SELECT run_key FROM run) * ${STEP_KEY_SPAN} + @step)
       ORDER BY row_key`,
    ),
    // The segments in a range, then the messages after the last of them. A segment covers the rows since
    // the previous segment, the first one since the run's first row: only a range that starts there can
    // use them.
    readSegments: db
      .prepare(
        `WITH run AS (SELECT run_key FROM runs WHERE run_id = @run_id)
       SELECT steps.step, blobs.digest, blobs.body FROM steps INDEXED BY steps_with_segments
         JOIN blobs ON blobs.digest = steps.message_segment AND blobs.body IS NOT NULL
       WHERE steps.run_key = (SELECT run_key FROM run) AND steps.step BETWEEN @from AND @to AND steps.message_segment IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM steps WHERE ${stepsOf('(SELECT run_key FROM run)', '0', '@from - 1')})
       ORDER BY steps.step`,
      )
      .raw(),
    readMessages: db
      .prepare(
        `SELECT message, message_digest FROM steps
         WHERE ${stepsOf(keyOfRun('@run_id'), '@from', '@to')} AND message IS NOT NULL ORDER BY row_key`,
      )
      .raw(),
    readBlobs: db
      .prepare('SELECT digest, body FROM blobs WHERE digest IN (SELECT value FROM json_each(?)) AND body IS NOT NULL')
      .raw(),
    readStructural: db.prepare(`SELECT body FROM structural_cassettes WHERE run_key = ${keyOfRun('?')}`).pluck(),
  };

  const getRunRow = (runId: string): RunRow | undefined => statements.getRun.get(runId) as RunRow | undefined;
  const toRun = (row: RunRow): RunRecord => runFromRow(row, sealer);
  // A run's rows and the blobs they reach open with its key; a message names whose payload it was.
  const opener = (runId: string) => (stored: StoredPayload) => sealer.open(stored, `run ${runId}`);
  const openBlob = (digest: string, body: StoredBody): string => sealer.open(body, `blob ${digest}`);
  return {
    getRunRow,
    getRun(runId) {
      const row = getRunRow(runId);
      return row === undefined ? undefined : toRun(row);
    },
    listRuns: () => (statements.listRuns.all() as RunRow[]).map(toRun),
    listChildren: (runId) => (statements.listChildren.all({ id: runId }) as RunRow[]).map(toRun),
    readSteps(runId, from = 0, to = LAST_STEP_KEY) {
      const open = opener(runId);
      return (statements.readSteps.all({ run_id: runId, ...stepRange(from, to) }) as StepRow[]).map((row) =>
        stepFromRow(row, open),
      );
    },
    readCheckpointChain(runId, step) {
      const open = opener(runId);
      return (
        statements.readChain.all({ run_id: runId, step: stepRange(0, step).to }) as Array<
          Pick<StepRow, 'step' | 'checkpoint' | 'checkpoint_full'>
        >
      ).map((row) => ({ step: row.step, checkpoint: open(row.checkpoint), checkpointFull: row.checkpoint_full === 1 }));
    },
    readMessages(runId, fromStep, upToStep) {
      const range = stepRange(fromStep, upToStep);
      const segmentRows = statements.readSegments.all({ run_id: runId, ...range }) as Array<
        [number, string, StoredBody]
      >;
      const after = segmentRows.at(-1)?.[0] ?? range.from - 1;
      const rows = statements.readMessages.all({ run_id: runId, from: after + 1, to: range.to }) as Array<
        [StoredPayload, string]
      >;
      const open = opener(runId);
      return {
        segments: segmentRows.map(([, digest, segment]) => openBlob(digest, segment)),
        messages: rows.map(([message]) => open(message)),
        digests: rows.map(([, digest]) => digest),
      };
    },
    readBlobs: (digests) =>
      new Map(
        (statements.readBlobs.all(JSON.stringify(digests)) as Array<[string, StoredBody]>).map(([digest, body]) => [
          digest,
          openBlob(digest, body),
        ]),
      ),
    readStructural: (runId) => statements.readStructural.get(runId) as string | undefined,
  };
}
