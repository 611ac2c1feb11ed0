import type Database from 'better-sqlite3';
import type { RunRecord } from '../run-record.js';
import type { RunQuery } from '../store.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import type { RunRow } from './row-mapping.js';
import { runFromRow } from './row-mapping.js';
import { runPageQuery } from './run-page-query.js';
import type { SignedRun, SignedRunQuery } from '../signed-run.js';
import type { SignedRunRow } from './signed-run-rows.js';
import { signedRunFromRow, signedRunsSql } from './signed-run-rows.js';

/** The run queries that read only what they return: a page, or what retention must remove now. */
export interface RunQueries {
  page(query: RunQuery): RunRecord[];
  expired(now: string): RunRecord[];
  expiredStructural(now: string): string[];
  signed(query: SignedRunQuery): SignedRun[];
}

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
  const cursor = db.prepare('SELECT created_at, run_key FROM runs WHERE run_id = ?');
  const page = runPageQuery(
    db,
    runColumns,
    (runId) => cursor.get(runId) as { created_at: string; run_key: number } | undefined,
  );
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
  // One statement per combination of filters given, prepared when first used.
  const signedStatements = new Map<string, Database.Statement>();
  const expiredStructural = db
    .prepare(
      `SELECT runs.run_id FROM structural_cassettes JOIN runs USING (run_key)
       WHERE structural_cassettes.expires_at IS NOT NULL AND structural_cassettes.expires_at <= ? ORDER BY structural_cassettes.expires_at`,
    )
    .pluck();

  return {
    page: (query) => page(query).map(toRun),
    expired(now) {
      const rows = new Map<string, KeyedRunRow>();
      for (const row of [...(expired.all({ now }) as KeyedRunRow[]), ...(orphanedForks.all() as KeyedRunRow[])])
        rows.set(row.run_id, row);
      return [...rows.values()].sort(byCreation).map(toRun);
    },
    expiredStructural: (now) => expiredStructural.all(now) as string[],
    signed(query) {
      const { sql, values } = signedRunsSql(query, () => '?');
      let prepared = signedStatements.get(sql);
      if (prepared === undefined) {
        prepared = db.prepare(sql);
        signedStatements.set(sql, prepared);
      }
      return (prepared.all(...values) as SignedRunRow[]).map(signedRunFromRow);
    },
  };
}
