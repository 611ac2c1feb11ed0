import type { RestoreRequest, RestoreRows } from '../restore-request.js';
import type { LogRow } from './row-reads.js';
import { CHAIN, LOG_PARTS, LOG_ROWS, logsOf, stepRange } from './row-reads.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

/**
 * Everything a restore reads once it knows the lineage, in one statement:
 * the checkpoint chain, the message logs, and every blob their checkpoints and
 * messages refer to, followed through the blobs that refer further
 * (`blobs.refs`) by a recursive CTE on the server. The references are the
 * rows' own columns (`checkpoint_refs`, `message_refs`), so the server finds
 * them without reading a payload. One round trip, whatever the step.
 */
const READ_RESTORE = statement(
  'read_restore',
  `WITH RECURSIVE ${CHAIN},
   ranges AS (
     SELECT wanted.position, runs.run_key, wanted.from_step, wanted.to_step
     FROM unnest($3::text[], $4::integer[], $5::integer[]) WITH ORDINALITY AS wanted (run_id, from_step, to_step, position)
       JOIN runs USING (run_id)
   ),
   ${LOG_PARTS('ranges')},
   reached (digest) AS (
     SELECT ref FROM chain, unnest(chain.checkpoint_refs) AS ref
     UNION SELECT ref FROM log_messages, unnest(log_messages.message_refs) AS ref
     UNION SELECT ref FROM reached JOIN blobs USING (digest), unnest(blobs.refs) AS ref WHERE blobs.refs <> '{}'
   )
   SELECT * FROM (
     SELECT 0 AS part, NULL::bigint AS position, step, checkpoint AS text, checkpoint_full AS flag, NULL::text AS digest FROM chain
     UNION ALL SELECT 1, position, step, text, segment, digest FROM (${LOG_ROWS}) AS logs
     UNION ALL SELECT 2, NULL, NULL, blobs.body, NULL, blobs.digest FROM reached JOIN blobs USING (digest)
   ) AS parts ORDER BY part, position, flag DESC, step`,
);

interface RestoreRow {
  readonly part: number;
  readonly position: string | null;
  readonly step: number | null;
  readonly text: string;
  readonly flag: boolean | null;
  readonly digest: string | null;
}

/** `readRestore` of the PostgreSQL store, through `executor`. */
export async function readRestore(executor: Executor, request: RestoreRequest): Promise<RestoreRows> {
  const ranges = request.logs.map((range) => ({ runId: range.runId, steps: stepRange(range.from, range.to) }));
  const rows = await executor.rows<RestoreRow>(READ_RESTORE, [
    request.chain.runId,
    stepRange(0, request.chain.step)[1],
    ranges.map((range) => range.runId),
    ranges.map((range) => range.steps[0]),
    ranges.map((range) => range.steps[1]),
  ]);
  const chain = [];
  const logRows: LogRow[] = [];
  const blobs = new Map<string, string>();
  for (const row of rows) {
    if (row.part === 0) chain.push({ step: row.step ?? 0, checkpoint: row.text, checkpointFull: row.flag === true });
    else if (row.part === 1)
      logRows.push({ position: row.position ?? 0, text: row.text, digest: row.digest, segment: row.flag === true });
    else if (row.digest !== null) blobs.set(row.digest, row.text);
  }
  return { chain, logs: logsOf(logRows, ranges.length), blobs };
}
