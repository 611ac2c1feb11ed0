import type { RunErrorRecord } from '../store/index.js';
import type { Divergence } from '../vocabulary/index.js';
import type { CountedRun } from './outcome-histogram.js';
import { outcomeHistogram, outcomeKey } from './outcome-histogram.js';
import type { ReplayDivergence } from './replay-divergence.js';

/** What a verification concluded. */
export type Verdict = 'fix-confirmed' | 'not-reproducible' | 'not-fixed' | 'candidate-diverged' | 'blocked' | 'flaky';

/** What the verdict is judged from. */
export interface VerificationEvidence {
  /** How the recording ended: the failure a fix has to remove. */
  readonly recording: CountedRun;
  readonly candidate: readonly CountedRun[];
  readonly control: readonly CountedRun[];
  /** The first divergence of a candidate run in strict replay, if any. */
  readonly candidateDivergence: Divergence | ReplayDivergence | null;
}

/** A verdict and the sentence that explains it. */
export interface Judgement {
  readonly verdict: Verdict;
  readonly reason: string;
}

/**
 * Tells a fix from a vanished trajectory (or says why it cannot: `blocked`
 * when the side-effect firewall stopped an arm before its outcome). A green candidate alone fits two
 * hypotheses (the fix worked, or the failure no longer reproduces); the
 * control arm, the unpatched build on the same observations or world, makes
 * opposite predictions under them. Repeats tell a reliable outcome from a
 * coin toss.
 */
export function judgeVerification(evidence: VerificationEvidence): Judgement {
  const { recording, candidate, control, candidateDivergence } = evidence;
  const recorded = outcomeKey(recording);
  if (candidateDivergence !== null) {
    return {
      verdict: 'candidate-diverged',
      reason: `the candidate asked something the recording cannot answer: ${candidateDivergence.message}`,
    };
  }
  // A run the firewall stopped never reached an outcome of its own: it says nothing about the fix.
  const blocked = [...candidate, ...control]
    .map((run) => run.error)
    .find((error): error is RunErrorRecord => error?.code === 'SIDE_EFFECT_BLOCKED');
  if (blocked !== undefined) {
    return {
      verdict: 'blocked',
      reason: `an arm was stopped by the side-effect firewall before it reached an outcome (${blocked.message.split(';')[0]}); run the arms with --side-effects simulate, or live by name`,
    };
  }
  const mixed = [
    ['candidate', candidate],
    ['control', control],
  ].filter(([, runs]) => Object.keys(outcomeHistogram(runs as CountedRun[])).length > 1) as Array<
    [string, CountedRun[]]
  >;
  if (mixed.length > 0) {
    const counts = mixed.map(([arm, runs]) => `${arm} ${describeCounts(runs)}`).join('; ');
    return { verdict: 'flaky', reason: `outcomes are mixed across repeats: ${counts}` };
  }
  const failsAsRecorded = (run: CountedRun) => run.status === 'failed' && outcomeKey(run) === recorded;
  if (recording.status !== 'failed' || !control.every(failsAsRecorded)) {
    return {
      verdict: 'not-reproducible',
      reason:
        recording.status !== 'failed'
          ? `the recording did not fail (${recorded}), so there is no failure for a fix to remove`
          : `the control arm no longer fails as recorded (${recorded}): it ${describeCounts(control)}. The trajectory is gone and the fix was never exercised`,
    };
  }
  if (!candidate.every((run) => run.status === 'completed')) {
    return { verdict: 'not-fixed', reason: `the candidate fails as well: ${describeCounts(candidate)}` };
  }
  return {
    verdict: 'fix-confirmed',
    reason: `the control arm still fails as recorded (${recorded}) and the candidate does not: ${describeCounts(candidate)}`,
  };
}

function describeCounts(runs: readonly CountedRun[]): string {
  return Object.entries(outcomeHistogram(runs))
    .map(([key, count]) => `${key} ${count}/${runs.length}`)
    .join(', ');
}
