import type { RunRecord } from '../run-record.js';
import type { RunQuery, StoreReader } from '../store.js';
import type { SignedRunRow } from '../sqlite/signed-run-rows.js';
import { signedRunFromRow, signedRunsSql } from '../sqlite/signed-run-rows.js';
import type { KeyRing } from './key-ring.js';
import { runKeyIds } from './payload-columns.js';
import type { RunKeys } from './run-keys.js';
import type { PostgresRunRow } from './run-columns.js';
import { SELECT_RUN, runOfRow } from './run-columns.js';
import type { Executor, Statement } from './sql-statement.js';
import { statement } from './sql-statement.js';

// The filters of a page, each a range or an equality the planner combines with a backward walk of
// runs_by_created_at, so that a page reads about its own rows.
const FILTERS = {
  since: (n: number) => `runs.created_at >= $${n}`,
  until: (n: number) => `runs.created_at < $${n}`,
  // The cursor run's place: before it in the listing means older, or as old and made earlier. A cursor that
  // names no run compares with NULL, which leaves the page empty.
  before: (n: number) =>
    `(runs.created_at, runs.run_key) < (SELECT cursor.created_at, cursor.run_key FROM runs AS cursor WHERE cursor.run_id = $${n})`,
  mode: (n: number) => `runs.mode = $${n}`,
  status: (n: number) => `runs.status = $${n}`,
  build: (n: number) => `runs.build = $${n}`,
  scenario: (n: number) => `runs.scenario = $${n}`,
} as const;

const SQL = {
  getRun: statement('get_run', `SELECT ${SELECT_RUN} FROM runs WHERE run_id = $1`),
  listRuns: statement('list_runs', `SELECT ${SELECT_RUN} FROM runs ORDER BY created_at, run_key`),
  listChildren: statement(
    'list_children',
    `SELECT ${SELECT_RUN} FROM runs WHERE parent_run_id = $1 OR source_run_id = $1 ORDER BY created_at, run_key`,
  ),
  // The run, then each parent in turn, in one recursive query; it stops at a missing parent or at one it
  // listed already (a cycle), which the caller names.
  readLineage: statement(
    'read_lineage',
    `WITH RECURSIVE lineage (run_key, parent_run_id, depth, seen) AS (
       SELECT run_key, parent_run_id, 0, ARRAY[run_id] FROM runs WHERE run_id = $1
       UNION ALL
       SELECT parent.run_key, parent.parent_run_id, lineage.depth + 1, lineage.seen || parent.run_id
         FROM lineage JOIN runs AS parent ON parent.run_id = lineage.parent_run_id
         WHERE NOT parent.run_id = ANY (lineage.seen)
     )
     SELECT ${SELECT_RUN} FROM lineage JOIN runs USING (run_key) ORDER BY lineage.depth`,
  ),
  // Runs still holding a full tier past its expiry (runs_by_expiry), and forks still holding rows whose
  // parent's full tier is gone (runs_by_parent: forks are few), oldest first.
  expiredRuns: statement(
    'expired_runs',
    `SELECT ${SELECT_RUN} FROM runs WHERE run_key IN (
       SELECT run_key FROM runs WHERE purged_at IS NULL AND expires_at IS NOT NULL AND expires_at <= $1
       UNION
       SELECT child.run_key FROM runs AS child JOIN runs AS parent ON parent.run_id = child.parent_run_id
         WHERE child.parent_run_id IS NOT NULL AND child.purged_at IS NULL AND parent.purged_at IS NOT NULL
     ) ORDER BY created_at, run_key`,
  ),
  expiredStructural: statement(
    'expired_structural',
    `SELECT runs.run_id FROM structural_cassettes JOIN runs USING (run_key)
     WHERE structural_cassettes.expires_at IS NOT NULL AND structural_cassettes.expires_at <= $1
     ORDER BY structural_cassettes.expires_at, run_key`,
  ),
} as const;

/** The reads of runs: one statement each. */
export type RunReads = Pick<
  StoreReader,
  | 'getRun'
  | 'listRuns'
  | 'queryRuns'
  | 'listSignedRuns'
  | 'listChildren'
  | 'readLineage'
  | 'expiredRuns'
  | 'expiredStructural'
>;

/**
 * The PostgreSQL store's reads of runs through `executor`, their summaries
 * opened with the keys of `ring` (read again when a row names one it does
 * not hold); the key ids of the runs read one by one go to `known`, for the
 * writes that follow (a resume reads its run first).
 */
export function runReads(executor: Executor, ring: KeyRing, known: RunKeys): RunReads {
  const runs = async (sql: Statement, values: readonly unknown[]): Promise<RunRecord[]> => {
    const rows = await executor.rows<PostgresRunRow>(sql, values);
    await ring.cover(executor, rows.flatMap(runKeyIds));
    return rows.map((row) => runOfRow(row, ring.sealer));
  };
  const remembered = (records: RunRecord[]): RunRecord[] => {
    for (const record of records) known.remember(record);
    return records;
  };
  // One statement per combination of filters given, made when first used.
  const pages = new Map<string, Statement>();
  const pageStatement = (names: ReadonlyArray<keyof typeof FILTERS>): Statement => {
    const key = names.join(',');
    let page = pages.get(key);
    if (page === undefined) {
      const where = names.length === 0 ? '' : `WHERE ${names.map((name, i) => FILTERS[name](i + 2)).join(' AND ')}`;
      page = statement(
        `page_${names.join('_') || 'all'}`,
        `SELECT ${SELECT_RUN} FROM runs ${where} ORDER BY runs.created_at DESC, runs.run_key DESC LIMIT $1`,
      );
      pages.set(key, page);
    }
    return page;
  };

  return {
    async getRun(runId) {
      const [run] = remembered(await runs(SQL.getRun, [runId]));
      return run;
    },
    listRuns: () => runs(SQL.listRuns, []),
    queryRuns(query: RunQuery) {
      const names: Array<keyof typeof FILTERS> = [];
      const values: unknown[] = [query.limit];
      for (const name of ['since', 'until', 'before', 'mode', 'status', 'build', 'scenario'] as const) {
        const value = query[name];
        if (value === undefined) continue;
        names.push(name);
        values.push(value);
      }
      return runs(pageStatement(names), values);
    },
    async listSignedRuns(query) {
      const { sql, values } = signedRunsSql(query, (index) => `$${index}`);
      const name = `signed_runs${query.digest === undefined ? '' : '_digest'}${query.since === undefined ? '' : '_since'}${query.until === undefined ? '' : '_until'}`;
      return (await executor.rows<SignedRunRow>(statement(name, sql), values)).map(signedRunFromRow);
    },
    listChildren: (runId) => runs(SQL.listChildren, [runId]),
    readLineage: async (runId) => remembered(await runs(SQL.readLineage, [runId])),
    expiredRuns: (now) => runs(SQL.expiredRuns, [now]),
    async expiredStructural(now) {
      return (await executor.rows<{ run_id: string }>(SQL.expiredStructural, [now])).map((row) => row.run_id);
    },
  };
}
