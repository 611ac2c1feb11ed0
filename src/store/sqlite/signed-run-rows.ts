import type { JsonValue } from '../../json/index.js';
import { decodingStored } from '../../payload/index.js';
import { isUsageTotals } from '../../pricing/index.js';
import { isFailureSignature } from '../../signature/index.js';
import type { SignedRun, SignedRunQuery } from '../signed-run.js';
import type { RunRow } from './row-mapping.js';

/** The columns of `runs` a {@link SignedRun} is read from: none of them a payload. */
export const SIGNED_RUN_COLUMNS = [
  'run_id',
  'mode',
  'agent_name',
  'build',
  'code_hash',
  'scenario',
  'created_at',
  'status',
  'source_run_id',
  'parent_run_id',
  'signature',
  'usage',
] as const satisfies ReadonlyArray<keyof RunRow>;

/** A `runs` row as a signed-run read selects it. */
export type SignedRunRow = Pick<RunRow, (typeof SIGNED_RUN_COLUMNS)[number]>;

/**
 * SQL, for both stores: the signed runs matching the filters given, oldest
 * first. `param` writes the placeholder of the i-th filter value; the digest
 * filter comes first, so that the planner walks `runs_by_signature`.
 */
export function signedRunsSql(
  query: SignedRunQuery,
  param: (index: number) => string,
): { sql: string; values: string[] } {
  const filters: string[] = ["signature IS NOT NULL AND status <> 'running'"];
  const values: string[] = [];
  const add = (condition: (placeholder: string) => string, value: string | undefined): void => {
    if (value === undefined) return;
    values.push(value);
    filters.push(condition(param(values.length)));
  };
  add((p) => `signature_digest = ${p}`, query.digest);
  add((p) => `created_at >= ${p}`, query.since);
  add((p) => `created_at < ${p}`, query.until);
  const columns = SIGNED_RUN_COLUMNS.map((column) => `runs.${column}`).join(', ');
  return {
    sql: `SELECT ${columns} FROM runs WHERE ${filters.join(' AND ')} ORDER BY runs.created_at, runs.run_key`,
    values,
  };
}

/** Maps a signed-run row to its record; a column forkpoint did not write is `STORE_CORRUPT`, naming the run. */
export function signedRunFromRow(row: SignedRunRow): SignedRun {
  return decodingStored(`run ${row.run_id}'s signature`, () => {
    const signature = JSON.parse(row.signature ?? 'null') as JsonValue;
    const usage = row.usage === null ? null : (JSON.parse(row.usage) as JsonValue);
    if (!isFailureSignature(signature)) throw new SyntaxError('it holds a signature that is not a failure signature');
    if (usage !== null && !isUsageTotals(usage)) throw new SyntaxError('it holds usage that is not token totals');
    return {
      runId: row.run_id,
      mode: row.mode as SignedRun['mode'],
      agentName: row.agent_name,
      build: row.build,
      codeHash: row.code_hash,
      scenario: row.scenario,
      createdAt: row.created_at,
      status: row.status as SignedRun['status'],
      sourceRunId: row.source_run_id,
      parentRunId: row.parent_run_id,
      signature,
      usage,
    };
  });
}
