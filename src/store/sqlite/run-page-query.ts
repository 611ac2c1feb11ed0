import type Database from 'better-sqlite3';
import type { RunQuery } from '../store.js';
import type { RunRow } from './row-mapping.js';

// The ranges of a page, each on the listing's order (created_at, then run_key, the rowid every index ends with).
const RANGES = {
  since: 'created_at >= @since',
  until: 'created_at < @until',
  // The cursor run's place: before it in the listing means older, or as old and made earlier.
  before: 'created_at <= @before_at AND (created_at < @before_at OR run_key < @before_key)',
} as const;

/**
 * The filters that match a value, each with an index of its own (migration 11), `(column, created_at)`.
 * Listed in the order that breaks a tie between filters that each match many runs.
 */
const MATCHES = {
  build: 'runs_by_build',
  scenario: 'runs_by_scenario',
  mode: 'runs_by_mode',
  status: 'runs_by_status',
} as const;

type RangeName = keyof typeof RANGES;
type MatchName = keyof typeof MATCHES;
/** The index a page walks: a filter's, or the listing's own when it matches no value. */
type PageIndex = (typeof MATCHES)[MatchName] | 'runs_by_created_at';

// A filter's runs are counted up to this many: enough to tell one that narrows a page from one that does not,
// at the cost of reading a thousand entries of its index, and none of the runs.
const COUNT_CAP = 1000;

/**
 * A page of runs (`Store.queryRuns`) as SQL, rows newest first. A page that
 * matches no value walks runs_by_created_at backwards; one that matches a
 * value walks that filter's index backwards, inside the page's ranges
 * (since, until, the cursor), so that it reads about its own rows however
 * few runs the filter matches. A page that matches several values walks the
 * index of the one that matches fewest runs there, counted up to
 * {@link COUNT_CAP}, and checks the others on the rows it reads. Plans are
 * pinned (INDEXED BY): without statistics, SQLite's planner has no way to
 * tell a narrow filter from a broad one.
 *
 * @param cursorOf the place of the cursor's run, undefined when it names none (the page is then empty)
 */
export function runPageQuery(
  db: Database.Database,
  runColumns: string,
  cursorOf: (runId: string) => { created_at: string; run_key: number } | undefined,
): (query: RunQuery) => RunRow[] {
  const statements = new Map<string, Database.Statement>();
  // One statement per combination of filters given and index walked, prepared when first used.
  const prepared = (key: string, sql: () => string): Database.Statement => {
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = db.prepare(sql());
      statements.set(key, statement);
    }
    return statement;
  };
  const conditions = (ranges: readonly RangeName[], matches: readonly MatchName[]): string[] => [
    ...ranges.map((name) => RANGES[name]),
    ...matches.map((name) => `${name} = @${name}`),
  ];
  const countOf = (name: MatchName, ranges: readonly RangeName[], params: Record<string, string | number>): number =>
    prepared(
      `count:${name}:${ranges.join(',')}`,
      () =>
        `SELECT count(*) FROM (SELECT 1 FROM runs INDEXED BY ${MATCHES[name]} WHERE ${conditions(ranges, [name]).join(' AND ')} LIMIT ${COUNT_CAP})`,
    )
      .pluck()
      .get(params) as number;

  // The filter that matches fewest runs inside the ranges; a lone filter is not counted. Ties keep the order of MATCHES.
  const narrowest = (
    matches: readonly MatchName[],
    ranges: readonly RangeName[],
    params: Record<string, string | number>,
  ): MatchName => {
    let best: { name: MatchName; count: number } | undefined;
    for (const name of matches) {
      const count = matches.length === 1 ? 0 : countOf(name, ranges, params);
      if (best === undefined || count < best.count) best = { name, count };
    }
    if (best === undefined) throw new Error('narrowest is asked of one filter or more');
    return best.name;
  };

  return (query) => {
    const params: Record<string, string | number> = { limit: query.limit };
    const ranges: RangeName[] = [];
    if (query.since !== undefined) {
      ranges.push('since');
      params.since = query.since;
    }
    if (query.until !== undefined) {
      ranges.push('until');
      params.until = query.until;
    }
    if (query.before !== undefined) {
      const at = cursorOf(query.before);
      if (at === undefined) return [];
      ranges.push('before');
      Object.assign(params, { before_at: at.created_at, before_key: at.run_key });
    }
    const matches: MatchName[] = [];
    for (const name of Object.keys(MATCHES) as MatchName[]) {
      const value = query[name];
      if (value === undefined) continue;
      matches.push(name);
      params[name] = value;
    }
    const index: PageIndex = matches.length === 0 ? 'runs_by_created_at' : MATCHES[narrowest(matches, ranges, params)];
    const where = conditions(ranges, matches);
    return prepared(
      `page:${index}:${ranges.join(',')}:${matches.join(',')}`,
      () =>
        `SELECT ${runColumns} FROM runs INDEXED BY ${index} ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`} ORDER BY created_at DESC, run_key DESC LIMIT @limit`,
    ).all(params) as RunRow[];
  };
}
