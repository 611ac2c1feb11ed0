import { ForkpointError } from '../errors/index.js';
import type { PriceLookup } from '../pricing/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import type { OwnerCheck } from './read-run.js';
import { effectiveStatus, summarizeRun } from './read-run.js';
import type { RunSummary } from './run-view.js';
import { priceTablesOf } from './run-prices.js';
import type { RunMode, RunStatus } from '../vocabulary/index.js';
/** Runs on a page unless asked otherwise. */
export const DEFAULT_PAGE_SIZE = 50;

/** Which runs a page holds; every filter is optional. */
export interface RunPageQuery {
  /** At most this many runs; default {@link DEFAULT_PAGE_SIZE}. */
  readonly limit?: number;
  /** The cursor: only runs listed after this one, as the previous page's `next` names it. */
  readonly before?: string;
  /** Only runs created at or after this ISO timestamp. */
  readonly since?: string;
  /** Only runs created strictly before this ISO timestamp. */
  readonly until?: string;
  readonly mode?: RunMode;
  /** As readers see it: `interrupted` is a `running` run whose owner is gone. */
  readonly status?: RunStatus;
  readonly build?: string;
  /** Only runs of this scenario, exactly as the run stored it (`scenarios/claims-triage`, or an absolute path). */
  readonly scenario?: string;
}

/** One page of runs, newest first, and the cursor of the next (null on the last page). */
export interface RunPage {
  readonly runs: readonly RunSummary[];
  readonly next: string | null;
}

/**
 * One page of runs, newest first, read through the store's paging query, so
 * that listing costs the page, not the database. A status filter of
 * `running` or `interrupted` asks the store for what it holds (`running`) and
 * keeps the runs whose lease says so, reading on until the page is full.
 * With `now`, each run is shown as the retention rule has it then (an expired
 * full tier shows no payload), gc or not. Each run is priced from the token
 * totals it stored, by the table `prices` gives for its scenario: no step is read.
 */
export async function runPage(
  store: StoreReader,
  isOwnerAlive: OwnerCheck,
  prices: PriceLookup,
  query: RunPageQuery = {},
  now?: Date,
): Promise<RunPage> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new ForkpointError('USAGE', `a page holds at least one run, got a limit of ${limit}`);
  if (query.before !== undefined && (await store.getRun(query.before)) === undefined) {
    throw new ForkpointError(
      'RUN_NOT_FOUND',
      `no run ${query.before} to list the runs before; take the cursor from the previous page's next`,
    );
  }
  const stored = query.status === 'interrupted' ? 'running' : query.status;
  const matches = (run: RunRecord): boolean =>
    query.status === undefined || effectiveStatus(run, isOwnerAlive) === query.status;
  // One more than the page, to know whether another page follows.
  const found: RunRecord[] = [];
  let before = query.before;
  while (found.length <= limit) {
    const wanted = limit + 1 - found.length;
    const chunk = await store.queryRuns({
      limit: wanted,
      ...(before === undefined ? {} : { before }),
      ...(query.since === undefined ? {} : { since: query.since }),
      ...(query.until === undefined ? {} : { until: query.until }),
      ...(query.mode === undefined ? {} : { mode: query.mode }),
      ...(stored === undefined ? {} : { status: stored }),
      ...(query.build === undefined ? {} : { build: query.build }),
      ...(query.scenario === undefined ? {} : { scenario: query.scenario }),
    });
    for (const run of chunk) if (matches(run)) found.push(run);
    if (chunk.length < wanted) break;
    before = chunk.at(-1)?.runId;
  }
  const runs = found.slice(0, limit);
  const tableOf = await priceTablesOf(prices, runs);
  return {
    runs: runs.map((run) => summarizeRun(run, isOwnerAlive, tableOf(run), now)),
    next: found.length > limit ? (runs.at(-1)?.runId ?? null) : null,
  };
}
