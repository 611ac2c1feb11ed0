import type Database from 'better-sqlite3';
import type { RunRecord } from '../run-record.js';
import type { RunQuery } from '../store.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import type { RunRow } from './row-mapping.js';
import { runFromRow } from './row-mapping.js';

/** The run queries that read only what they return: a page, or what retention must remove now. */
export interface RunQueries {
  page(query: RunQuery): RunRecord[];
  expired(now: string): RunRecord[];
  expiredStructural(now: string): string[];
}

// The filters of a page, in the order their SQL is written; each is a range or an equality the planner
// combines with a backward walk of runs_by_created_at (migration 7), so a page reads about its own rows.
const FILTERS = {
  since: 'created_at >= @since',
  until: 'created_at < @until',
  // The cursor run's place: before it in the listing means older, or as old and made earlier.
  before: 'created_at <= @before_at AND (created_at < @before_at OR run_key < @before_key)',
  mode: 'mode = @mode',
  status: 'status = @status',
  build: 'build = @build',
  scenario: 'scenario = @scenario',
} as const;

// A run's columns include its key (`runs.*`), which orders runs made in the same millisecond.
type KeyedRunRow = RunRow & { readonly run_key: number };

// Oldest first: by creation time, then the order the runs were made.
const byCreation = (a: KeyedRunRow, b: KeyedRunRow): number =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.run_key - b.run_key;

/**
 * The SQLite store's run queries. `runColumns` is how the store selects a
 * run's columns (its step count is computed for a running run); `sealer`
 * opens their payload columns.
 */
export function runQueries(db: Database.Database, runColumns: string, sealer: PayloadSealer): RunQueries {
  const toRun = (row: RunRow): RunRecord => runFromRow(row, sealer);
  // One statement per combination of filters given, prepared when first used.
  const pages = new Map<string, Database.Statement>();
  const pageStatement = (names: ReadonlyArray<keyof typeof FILTERS>): Database.Statement => {
    const key = names.join(',');
    let statement = pages.get(key);
    if (statement === undefined) {
      const where = names.length === 0 ? '' : `WHERE ${names.map((name) => FILTERS[name]).join(' AND ')}`;
      statement = db.prepare(
        `SELECT ${runColumns} FROM runs INDEXED BY runs_by_created_at ${where} ORDER BY created_at DESC, run_key DESC LIMIT @limit`,
      );
      pages.set(key, statement);
    }
    return statement;
  };
  const cursor = db.prepare('SELECT created_at, run_key FROM runs WHERE run_id = ?');
  // The expiry index holds only runs that still have their full tier.
  const expired = db.prepare(
    `SELECT ${runColumns} FROM runs INDEXED BY runs_by_expiry
     WHERE purged_at IS NULL AND expires_at IS NOT NULL AND expires_at <= @now`,
  );
  // Forks are few: their index is walked whole.
  const orphanedForks = db.prepare(
    `SELECT ${runColumns} FROM runs INDEXED BY runs_by_parent
     WHERE parent_run_id IS NOT NULL AND purged_at IS NULL
       AND EXISTS (SELECT 1 FROM runs AS parent WHERE parent.run_id = runs.parent_run_id AND parent.purged_at IS NOT NULL)`,
  );
  const expiredStructural = db
    .prepare(
      `SELECT runs.run_id FROM structural_cassettes JOIN runs USING (run_key)
       WHERE structural_cassettes.expires_at IS NOT NULL AND structural_cassettes.expires_at <= ? ORDER BY structural_cassettes.expires_at`,
    )
    .pluck();

  return {
    page(query) {
      const params: Record<string, string | number> = { limit: query.limit };
      const names: Array<keyof typeof FILTERS> = [];
      const filter = (name: keyof typeof FILTERS, values: Record<string, string | number>): void => {
        names.push(name);
        Object.assign(params, values);
      };
      if (query.since !== undefined) filter('since', { since: query.since });
      if (query.until !== undefined) filter('until', { until: query.until });
      if (query.before !== undefined) {
        const at = cursor.get(query.before) as { created_at: string; run_key: number } | undefined;
        if (at === undefined) return [];
        filter('before', { before_at: at.created_at, before_key: at.run_key });
      }
      if (query.mode !== undefined) filter('mode', { mode: query.mode });
      if (query.status !== undefined) filter('status', { status: query.status });
      if (query.build !== undefined) filter('build', { build: query.build });
      if (query.scenario !== undefined) filter('scenario', { scenario: query.scenario });
      return (pageStatement(names).all(params) as RunRow[]).map(toRun);
    },
    expired(now) {
      const rows = new Map<string, KeyedRunRow>();
      for (const row of [...(expired.all({ now }) as KeyedRunRow[]), ...(orphanedForks.all() as KeyedRunRow[])])
        rows.set(row.run_id, row);
      return [...rows.values()].sort(byCreation).map(toRun);
    },
    expiredStructural: (now) => expiredStructural.all(now) as string[],
  };
}
