import type { StoreReader } from '../store.js';
import type { CheckpointRow, MessageLog } from '../step-record.js';
import type { StepRow } from './run-columns.js';
import { STEP_COLUMNS, stepOfRow } from './run-columns.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

/** The highest step a row can hold (`steps.step` is an `integer`). */
export const LAST_STEP_NUMBER = 2 ** 31 - 1;

/** Step numbers clamped to what a row can hold, so that a range's ends are integers the server takes. */
export const stepRange = (from: number, to: number): [number, number] => [
  Math.max(0, Math.min(from, LAST_STEP_NUMBER)),
  Math.max(-1, Math.min(to, LAST_STEP_NUMBER)),
];

/** SQL: the key of the run named by parameter `$n`. */
export const keyOf = (n: number): string => `(SELECT run_key FROM runs WHERE run_id = $${n})`;

/**
 * SQL (CTEs `run`, then `chain`): the rows that rebuild checkpoint `$2` of the run `$1`, from the nearest
 * full checkpoint at or before it, none without row `$2`.
 */
export const CHAIN = `run AS (SELECT run_key FROM runs WHERE run_id = $1),
  chain AS (
    SELECT steps.step, steps.checkpoint, steps.checkpoint_full, steps.checkpoint_refs FROM run JOIN steps USING (run_key)
    WHERE steps.step BETWEEN (SELECT MAX(base.step) FROM steps AS base
                              WHERE base.run_key = run.run_key AND base.step <= $2 AND base.checkpoint_full) AND $2
      AND EXISTS (SELECT 1 FROM steps AS wanted WHERE wanted.run_key = run.run_key AND wanted.step = $2)
  )`;

/**
 * SQL (CTEs `log_segments`, then `log_messages`): the parts of message logs over ranges of runs' rows: the
 * segments in a range, when it starts at the run's first row (a segment covers every row since the previous
 * one), and the messages of the rows after the last segment. `ranges` is a relation of (position, run_key,
 * from_step, to_step), one row per log.
 */
export const LOG_PARTS = (ranges: string): string => `
  log_segments AS (
    SELECT r.position, s.step, b.body FROM ${ranges} AS r
      JOIN steps AS s ON s.run_key = r.run_key AND s.step BETWEEN r.from_step AND r.to_step AND s.message_segment IS NOT NULL
      JOIN blobs AS b ON b.digest = s.message_segment
    WHERE NOT EXISTS (SELECT 1 FROM steps AS earlier WHERE earlier.run_key = r.run_key AND earlier.step < r.from_step)
  ),
  log_messages AS (
    SELECT r.position, s.step, s.message, s.message_digest, s.message_refs FROM ${ranges} AS r
      JOIN steps AS s ON s.run_key = r.run_key AND s.step <= r.to_step AND s.message IS NOT NULL
        AND s.step > COALESCE((SELECT MAX(g.step) FROM log_segments AS g WHERE g.position = r.position), r.from_step - 1)
  )`;

/** One row of a statement over {@link LOG_PARTS}: a segment (digest null) or a message. */
export interface LogRow {
  readonly position: string | number;
  readonly text: string;
  readonly digest: string | null;
  readonly segment: boolean;
}

/** SQL: the rows of {@link LOG_PARTS}, segments first, each in step order. */
export const LOG_ROWS = `SELECT position, step, body AS text, NULL::text AS digest, true AS segment FROM log_segments
  UNION ALL SELECT position, step, message, message_digest, false FROM log_messages`;

/** Collects {@link LogRow}s into one message log per position from 1 to `count`. */
export function logsOf(rows: readonly LogRow[], count: number): MessageLog[] {
  const logs = Array.from({ length: count }, () => ({
    segments: [] as string[],
    messages: [] as string[],
    digests: [] as string[],
  }));
  for (const row of rows) {
    const log = logs[Number(row.position) - 1];
    if (log === undefined) continue;
    if (row.segment) {
      log.segments.push(row.text);
    } else {
      log.messages.push(row.text);
      log.digests.push(row.digest ?? '');
    }
  }
  return logs;
}

const SQL = {
  readSteps: statement(
    'read_steps',
    `SELECT ${STEP_COLUMNS} FROM steps WHERE run_key = ${keyOf(1)} AND step BETWEEN $2 AND $3 ORDER BY step`,
  ),
  readChain: statement('read_chain', `WITH ${CHAIN} SELECT step, checkpoint, checkpoint_full FROM chain ORDER BY step`),
  readMessages: statement(
    'read_messages',
    `WITH ranges AS (SELECT 1 AS position, run_key, $2::integer AS from_step, $3::integer AS to_step FROM runs WHERE run_id = $1),
     ${LOG_PARTS('ranges')}
     SELECT * FROM (${LOG_ROWS}) AS parts ORDER BY segment DESC, step`,
  ),
  readBlobs: statement('read_blobs', 'SELECT digest, body FROM blobs WHERE digest = ANY($1::text[])'),
  readStructural: statement('read_structural', `SELECT body FROM structural_cassettes WHERE run_key = ${keyOf(1)}`),
} as const;

/** The reads of a run's rows, blobs and structural record: one statement each. */
export type RowReads = Pick<
  StoreReader,
  'readSteps' | 'readCheckpointChain' | 'readMessages' | 'readBlobs' | 'readStructural'
>;

/** The PostgreSQL store's reads of rows through `executor`. */
export function rowReads(executor: Executor): RowReads {
  return {
    async readSteps(runId, from = 0, to = LAST_STEP_NUMBER) {
      return (await executor.rows<StepRow>(SQL.readSteps, [runId, ...stepRange(from, to)])).map(stepOfRow);
    },
    async readCheckpointChain(runId, step) {
      const rows = await executor.rows<Pick<StepRow, 'step' | 'checkpoint' | 'checkpoint_full'>>(SQL.readChain, [
        runId,
        stepRange(0, step)[1],
      ]);
      return rows.map((row): CheckpointRow => ({
        step: row.step,
        checkpoint: row.checkpoint,
        checkpointFull: row.checkpoint_full,
      }));
    },
    async readMessages(runId, fromStep, upToStep) {
      const rows = await executor.rows<LogRow>(SQL.readMessages, [runId, ...stepRange(fromStep, upToStep)]);
      return logsOf(rows, 1)[0] ?? { segments: [], messages: [], digests: [] };
    },
    async readBlobs(digests) {
      if (digests.length === 0) return new Map();
      const rows = await executor.rows<{ digest: string; body: string }>(SQL.readBlobs, [digests]);
      return new Map(rows.map((row) => [row.digest, row.body]));
    },
    async readStructural(runId) {
      const [row] = await executor.rows<{ body: string }>(SQL.readStructural, [runId]);
      return row?.body;
    },
  };
}
