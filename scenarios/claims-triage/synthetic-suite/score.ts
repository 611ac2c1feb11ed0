import type { SyntheticRunResult, SyntheticVerdict } from '../../../src/index.js';
import type { Expectation } from './expectation.js';
import { describeExpectation } from './expectation.js';
import { jsonText } from '../json-text.js';

/**
 * Scores a finished run against a case's expectation: the same decision (an
 * approval paying within the range), or a failure with the same code.
 */
export function scoreRun(expectation: Expectation, result: SyntheticRunResult): SyntheticVerdict {
  return {
    pass: meets(expectation, result),
    expected: describeExpectation(expectation),
    actual: describeResult(result),
  };
}

function meets(expectation: Expectation, result: SyntheticRunResult): boolean {
  if (expectation.kind === 'failure') return result.status === 'failed' && result.error?.code === expectation.code;
  if (result.status !== 'completed' || result.outcome === null) return false;
  if (result.outcome.decision !== expectation.decision) return false;
  if (expectation.decision !== 'approve') return true;
  const payout = result.outcome.payout;
  return typeof payout === 'number' && payout >= expectation.payout.min && payout <= expectation.payout.max;
}

/** What the run did in a few words: `approve, payout 341`, `refer`, `failed: STEP_CAP_REACHED`. */
function describeResult(result: SyntheticRunResult): string {
  if (result.error !== null) return `${result.status}: ${result.error.code}`;
  if (result.outcome === null) return result.status;
  const { decision, payout } = result.outcome;
  return typeof payout === 'number' ? `${jsonText(decision)}, payout ${payout}` : jsonText(decision);
}
