import { hasEnded } from '../vocabulary/index.js';
import type { DivergenceRow, SourcedDivergence, SourcedStep } from '../analysis/index.js';
import { classifyDivergence, tallyDivergences } from '../analysis/index.js';
import type { Cassette } from '../cassette/index.js';
import type { ErrorCode } from '../errors/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import type { RunSummary, RunView } from '../read/index.js';

/** One re-execution, where it first left its recording, and why. */
export interface ReportedReexecution extends SourcedDivergence {
  /** The recorded run. */
  readonly recordedRunId: string;
  readonly input: JsonObject;
  /** The re-execution, stored with mode `reexecution`. */
  readonly runId: string;
  /** Which of the run's re-executions, from 1. */
  readonly repeat: number;
  /** What its world said of itself. */
  readonly worldAt: string | null;
  readonly seed: number | null;
  readonly recordedBuild: { readonly build: string; readonly codeHash: string };
  readonly build: { readonly build: string; readonly codeHash: string };
  readonly status: RunStatus;
}

/** A recorded run the report could not re-execute (or, read from the store, could not judge), and why. */
export interface SkippedRun {
  readonly runId: string;
  readonly code: ErrorCode;
  readonly reason: string;
  /** How many of its re-executions were not made (or, read from the store, not classified). */
  readonly reexecutions: number;
}

/** The first-divergence table over a set of re-executions. */
export interface DivergenceReport {
  /** The mode of every run the report made. */
  readonly mode: 'reexecution';
  readonly repeats: number;
  /** How many recorded runs were asked for. */
  readonly runs: number;
  readonly skipped: readonly SkippedRun[];
  /** Classified re-executions: runs × repeats minus the skipped ones. */
  readonly total: number;
  /** One row per source, each with its re-executions. */
  readonly rows: readonly DivergenceRow<ReportedReexecution>[];
}

/**
 * What `divergence-report --json` prints: the report with the world's date it
 * re-executed against and the build it was asked for (null: each recording's own).
 */
export type DivergenceReportDocument = { readonly mode: 'reexecution'; readonly worldAt: string } & Omit<
  DivergenceReport,
  'mode'
> & { readonly build: string | null };

/** The part of a re-execution that decides how it stopped: its status, how it ended and each step's provenance. */
export type FirewalledRun = Pick<RunView, 'error' | 'status'> & {
  readonly steps: readonly Pick<RunView['steps'][number], 'kind' | 'provenance'>[];
};

/**
 * Where a re-execution first left its recording and why: the comparison of
 * the two cassettes (see `classifyDivergence`), then what the firewall, or a
 * person's approval not yet given, made of it. The one classification behind `divergenceReport`, which has just made
 * the re-execution, and `storedDivergenceReport`, which reads it back.
 */
export function classifyReexecution(recording: Cassette, reexecution: Cassette, run: FirewalledRun): SourcedDivergence {
  return stoppedAtRest(firewalled(classifyDivergence(sideOf(recording), sideOf(reexecution)), run), run);
}

/** A classified re-execution as the report lists it. */
export function reportedReexecution(
  recorded: Pick<RunSummary, 'runId' | 'input' | 'agent'>,
  run: Pick<RunView, 'runId' | 'worldAt' | 'seed' | 'agent' | 'status'>,
  repeat: number,
  divergence: SourcedDivergence,
): ReportedReexecution {
  return {
    recordedRunId: recorded.runId,
    input: recorded.input,
    runId: run.runId,
    repeat,
    worldAt: run.worldAt,
    seed: run.seed,
    recordedBuild: { build: recorded.agent.build, codeHash: recorded.agent.codeHash },
    build: { build: run.agent.build, codeHash: run.agent.codeHash },
    status: run.status,
    ...divergence,
  };
}

/** The skip of a recording that has not ended: there is nothing to compare a re-execution with. Null once it has. */
export function unfinishedSkip(run: Pick<RunSummary, 'runId' | 'status'>, reexecutions: number): SkippedRun | null {
  if (hasEnded(run.status)) return null;
  return {
    runId: run.runId,
    code: 'INPUT_INVALID',
    reason: `the recording is ${run.status}: it has no end to compare with`,
    reexecutions,
  };
}

/** Refuses a list of run ids that names a run twice. */
export function requireDistinctRuns(runIds: readonly string[]): void {
  const duplicate = runIds.find((runId, i) => runIds.indexOf(runId) !== i);
  if (duplicate !== undefined) throw new ForkpointError('USAGE', `run ${duplicate} is named twice; name each run once`);
}

/** The report over classified re-executions: one row per source, in the order of `DIVERGENCE_SOURCES`. */
export function divergenceReportOf(
  counts: { readonly repeats: number; readonly runs: number },
  skipped: readonly SkippedRun[],
  reported: readonly ReportedReexecution[],
): DivergenceReport {
  const { rows, total } = tallyDivergences(reported);
  return { mode: 'reexecution', repeats: counts.repeats, runs: counts.runs, skipped, total, rows };
}

/** The report as `divergence-report --json` prints it, field for field in that order. */
export function divergenceReportDocument(
  report: DivergenceReport,
  worldAt: string,
  build: string | null,
): DivergenceReportDocument {
  const { mode, ...rest } = report;
  return { mode, worldAt, ...rest, build };
}

/**
 * What the firewall made of a divergence: a re-execution it stopped before the
 * run had left its recording diverges for want of a call, not for a cause; an
 * answer a simulator gave is the simulator's, not the world's.
 */
function firewalled(divergence: SourcedDivergence, run: FirewalledRun): SourcedDivergence {
  const blockedAt = run.error?.code === 'SIDE_EFFECT_BLOCKED' ? run.error.step : null;
  if (blockedAt !== null && (divergence.step === null || divergence.step >= blockedAt)) {
    return {
      ...divergence,
      source: 'blocked',
      step: blockedAt,
      on: null,
      reason: `the side-effect firewall stopped it at step ${blockedAt} while it still followed the recording`,
      diff: [],
    };
  }
  const step = divergence.step === null ? undefined : run.steps[divergence.step - 1];
  if (divergence.source === 'tool-response' && step?.provenance === 'simulated') {
    return {
      ...divergence,
      source: 'simulated',
      reason: `same request; the simulator of ${step.kind} answered where the recording holds the real answer`,
    };
  }
  return divergence;
}

/**
 * A re-execution that waits for a person's approval has no step where its
 * recording has the answer: while it followed the recording up to there, that
 * is a run not yet finished, not a request that changed.
 */
function stoppedAtRest(divergence: SourcedDivergence, run: FirewalledRun): SourcedDivergence {
  if (run.status !== 'awaiting-approval') return divergence;
  const waitingAt = run.steps.length + 1;
  if (divergence.step !== null && divergence.step < waitingAt) return divergence;
  return {
    ...divergence,
    source: 'awaiting-approval',
    step: waitingAt,
    on: null,
    reason: `it waits at step ${waitingAt} for a person's approval while it still follows the recording`,
    diff: [],
  };
}

function sideOf(cassette: Cassette): { codeHash: string; steps: SourcedStep[]; messages: Cassette['messages'] } {
  const steps = cassette.entries.map((entry) => ({ ...entry, requestHash: entry.requestHash, provenance: 'recorded' }));
  return { codeHash: cassette.agent.codeHash, steps, messages: cassette.messages };
}
