import { hasEnded } from '../vocabulary/index.js';
import type { Engine, RunSummary } from '../engine/index.js';
import { assertRunId, assertWorldDate } from '../engine/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { DivergenceReportDocument, ReportedReexecution, SkippedRun } from './reexecution-divergence.js';
import {
  classifyReexecution,
  divergenceReportDocument,
  divergenceReportOf,
  reportedReexecution,
  requireDistinctRuns,
  unfinishedSkip,
} from './reexecution-divergence.js';

/** Which stored re-executions a report reads: `divergence-report`'s flags, without running anything. */
export interface StoredDivergenceQuery {
  /** The world's date the re-executions ran against (`--at`). */
  readonly at: string;
  /** Only re-executions with this build (`--build`); absent: each with its recording's own build. */
  readonly build?: string;
  /** Only re-executions of these runs, in this order (`--runs`); absent: of every recording that has some. */
  readonly runIds?: readonly string[];
}

/** A report a page can link to: a world's date and a build with stored re-executions. */
export interface StoredDivergenceRef {
  readonly at: string;
  /** Null: each re-execution with its recording's own build. */
  readonly build: string | null;
  readonly reexecutions: number;
}

const PAGE = 500;

/**
 * The divergence report of re-executions already in the store, exactly as
 * `divergence-report --json` prints it (see `divergenceReportDocument`), made
 * by the same classification over the same cassettes, and writing nothing.
 * Its recordings are the runs named, or every run with mode `record` that has
 * a finished re-execution matching the query (oldest first); each one's
 * re-executions count in the order they were made, `repeats` is the most any
 * one has. A recording whose full tier cannot be read is skipped as the
 * workflow skips it, with the number of its re-executions left unclassified; a
 * named run with none stored is skipped with `RUN_NOT_FOUND` and what to run.
 *
 * @example
 * ```ts
 * const report = await storedDivergenceReport(engine, { at: '2026-03-09' });
 * console.log(report.rows.map((row) => `${row.source} ${row.count}`));
 * ```
 */
export async function storedDivergenceReport(
  engine: Engine,
  query: StoredDivergenceQuery,
): Promise<DivergenceReportDocument> {
  assertWorldDate(query.at);
  const named = query.runIds;
  if (named !== undefined) {
    named.forEach(assertRunId);
    requireDistinctRuns(named);
  }
  // Named runs first, so that an unknown one is told before anything else is read.
  const namedRuns: RunSummary[] = [];
  for (const runId of named ?? []) namedRuns.push(await engine.getRunSummary(runId));
  const reexecutions = await storedReexecutions(engine, query.at);
  const recordings = named === undefined ? await recordingsOf(engine, reexecutions) : namedRuns;
  const belongs = (recording: RunSummary) => (run: RunSummary) =>
    run.sourceRunId === recording.runId && run.agent.build === (query.build ?? recording.agent.build);
  const groups = recordings
    .map((recording) => ({ recording, runs: reexecutions.filter(belongs(recording)) }))
    .filter((group) => named !== undefined || group.runs.length > 0);

  const reported: ReportedReexecution[] = [];
  const skipped: SkippedRun[] = [];
  for (const { recording, runs } of groups) {
    const unfinished = unfinishedSkip(recording, runs.length);
    if (unfinished !== null) {
      skipped.push(unfinished);
      continue;
    }
    const classified = await classifyStored(engine, recording, runs);
    reported.push(...classified.reported);
    const skip = classified.skipped ?? (runs.length === 0 ? noneStored(recording, query) : null);
    if (skip !== null) skipped.push(skip);
  }
  const repeats = Math.max(0, ...groups.map((group) => group.runs.length));
  const report = divergenceReportOf({ repeats, runs: groups.length }, skipped, reported);
  return divergenceReportDocument(report, query.at, query.build ?? null);
}

/**
 * The reports the store holds re-executions for: for each world's date, the
 * re-executions of recordings with their own build (`build` null), then those
 * of each build by name, so that a page can link to each report.
 */
export async function storedDivergenceReports(engine: Engine): Promise<StoredDivergenceRef[]> {
  const reexecutions = await storedReexecutions(engine);
  const sources = new Map((await recordingsOf(engine, reexecutions)).map((run) => [run.runId, run]));
  const refs = new Map<string, StoredDivergenceRef>();
  const count = (at: string, build: string | null): void => {
    const key = JSON.stringify([at, build]);
    refs.set(key, { at, build, reexecutions: (refs.get(key)?.reexecutions ?? 0) + 1 });
  };
  for (const run of reexecutions) {
    const source = run.sourceRunId === null ? undefined : sources.get(run.sourceRunId);
    if (source === undefined || run.worldAt === null) continue;
    if (run.agent.build === source.agent.build) count(run.worldAt, null);
    count(run.worldAt, run.agent.build);
  }
  return [...refs.values()].sort((a, b) => a.at.localeCompare(b.at) || (a.build ?? '').localeCompare(b.build ?? ''));
}

/**
 * Every finished re-execution in the store (of the world of `at`, when given),
 * oldest first, read page by page through the store's query by mode. A run
 * still being made is left out: it has no end to compare yet.
 */
async function storedReexecutions(engine: Engine, at?: string): Promise<RunSummary[]> {
  const newestFirst: RunSummary[] = [];
  let before: string | undefined;
  do {
    const page = await engine.runPage({
      mode: 'reexecution',
      limit: PAGE,
      ...(before === undefined ? {} : { before }),
    });
    newestFirst.push(...page.runs);
    before = page.next ?? undefined;
  } while (before !== undefined);
  return newestFirst
    .reverse()
    .filter((run) => hasEnded(run.status))
    .filter((run) => at === undefined || run.worldAt === at);
}

/** The recordings (mode `record`) that `runs` re-executed, oldest first, as `--all-recorded` lists them. */
async function recordingsOf(engine: Engine, runs: readonly RunSummary[]): Promise<RunSummary[]> {
  const recordings: RunSummary[] = [];
  for (const runId of new Set(runs.map((run) => run.sourceRunId))) {
    if (runId === null) continue;
    try {
      const source = await engine.getRunSummary(runId);
      if (source.mode === 'record') recordings.push(source);
    } catch (error) {
      // A re-execution copied without its source: there is no recording here to compare it with.
      if (!isForkpointError(error, 'RUN_NOT_FOUND')) throw error;
    }
  }
  // Sorting is stable: recordings made in the same millisecond keep the order of their first re-execution.
  return recordings.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Classifies a recording's stored re-executions in order. As in the workflow,
 * a full tier that is gone (the recording's is read first, even with none to
 * classify) skips the run's remaining re-executions, with the reason.
 */
async function classifyStored(
  engine: Engine,
  recording: RunSummary,
  runs: readonly RunSummary[],
): Promise<{ reported: ReportedReexecution[]; skipped: SkippedRun | null }> {
  const reported: ReportedReexecution[] = [];
  try {
    const recorded = await engine.cassette(recording.runId, 'full');
    for (const run of runs) {
      const view = await engine.getRun(run.runId);
      const divergence = classifyReexecution(recorded, await engine.cassette(run.runId, 'full'), view);
      reported.push(reportedReexecution(recording, view, reported.length + 1, divergence));
    }
  } catch (error) {
    if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
    const left = runs.length - reported.length;
    return {
      reported,
      skipped: { runId: recording.runId, code: error.code, reason: error.message, reexecutions: left },
    };
  }
  return { reported, skipped: null };
}

function noneStored(recording: RunSummary, query: StoredDivergenceQuery): SkippedRun {
  const build = query.build ?? null;
  const problem = `no finished re-execution of run ${recording.runId} against the world of ${query.at}${build === null ? '' : ` with build ${build}`} is stored`;
  const error = new ForkpointError('RUN_NOT_FOUND', problem, {
    details: {
      runId: recording.runId,
      remedy: { kind: 'run-divergence-report', runIds: [recording.runId], at: query.at, build },
    },
  });
  return { runId: recording.runId, code: error.code, reason: error.message, reexecutions: 0 };
}
