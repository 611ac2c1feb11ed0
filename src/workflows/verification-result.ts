import type { CountedRun, Verdict } from '../analysis/index.js';
import { ReplayDivergence, judgeVerification, outcomeHistogram } from '../analysis/index.js';
import type { RunSummary, RunView } from '../read/index.js';
import type { Finding } from '../vocabulary/index.js';
import { isDivergence } from '../vocabulary/index.js';

/** One arm of a verification: its build, its stored runs, and how they ended. */
export interface VerificationArm {
  readonly build: string;
  readonly runs: readonly string[];
  readonly outcomes: Readonly<Record<string, number>>;
}

/** A verification's result. */
export interface VerifyResult {
  readonly verdict: Verdict;
  readonly reason: string;
  /** The mode of every arm's runs. */
  readonly mode: 'replay:strict' | 'reexecution';
  readonly runId: string;
  readonly recording: {
    readonly status: RunView['status'];
    readonly outcome: RunView['outcome'];
    readonly error: RunView['error'];
  };
  readonly repeats: number;
  readonly candidate: VerificationArm;
  readonly control: VerificationArm;
  /** The candidate's first divergence in strict replay (its replay's `divergence`): the finding of `candidate-diverged`. */
  readonly divergence: ReplayDivergence | null;
}

/** What a verification reads of one run of an arm: how it ended and, for a replay, what it found. */
export type ArmRun = CountedRun & {
  readonly runId: string;
  readonly mode: RunSummary['mode'];
  readonly findings: readonly Finding[];
};

/** What a verification is judged from: the recording, and each arm's build and runs in the order they were made. */
export interface VerificationRuns {
  readonly recording: Pick<RunSummary, 'runId' | 'status' | 'outcome' | 'error'>;
  readonly mode: VerifyResult['mode'];
  readonly repeats: number;
  readonly candidate: { readonly build: string; readonly runs: readonly ArmRun[] };
  readonly control: { readonly build: string; readonly runs: readonly ArmRun[] };
}

/**
 * Judges a verification (see `judgeVerification`) and describes its arms: the
 * one judgement behind `verifyRun`, which has just run the arms, and
 * `storedVerification`, which reads them back.
 */
export function verificationOf(runs: VerificationRuns): VerifyResult {
  const { recording, candidate, control } = runs;
  const divergence = candidateDivergence(candidate.runs);
  const judgement = judgeVerification({
    recording,
    candidate: candidate.runs,
    control: control.runs,
    candidateDivergence: divergence,
  });
  return {
    ...judgement,
    mode: runs.mode,
    runId: recording.runId,
    recording: { status: recording.status, outcome: recording.outcome, error: recording.error },
    repeats: runs.repeats,
    candidate: armOf(candidate),
    control: armOf(control),
    divergence,
  };
}

/**
 * The candidate's first divergence: of its strict replays, in order, the first
 * one's first miss (a dropped call is not one: a fix may rightly stop
 * earlier), exactly the `divergence` its replay returned.
 */
function candidateDivergence(runs: readonly ArmRun[]): ReplayDivergence | null {
  for (const run of runs) {
    if (run.mode !== 'replay:strict') continue;
    const miss = run.findings.find((finding) => isDivergence(finding) && finding.classification !== 'dropped-call');
    if (miss !== undefined && isDivergence(miss)) return new ReplayDivergence(run.runId, miss);
  }
  return null;
}

function armOf(arm: VerificationRuns['candidate']): VerificationArm {
  return { build: arm.build, runs: arm.runs.map((run) => run.runId), outcomes: outcomeHistogram(arm.runs) };
}
