import type { Cassette } from '../../src/cassette/index.js';
import type { JsonObject } from '../../src/json/index.js';
import type { ReplayResult } from '../../src/modes/index.js';
import { stableJson } from '../../src/json/index.js';

/** How a run ended, as far as it can be compared: status, outcome and the failure's code and step. */
interface Ending {
  readonly status: string;
  readonly outcome: JsonObject | null;
  readonly error: JsonObject | null;
}

/**
 * True when a strict replay catches a change: it diverged, it left recorded
 * calls unasked (a `dropped-call` finding, which the report shows), or it
 * ended otherwise than the recording (status, outcome, or failure code and step).
 */
export function strictReplayCatches(recorded: Cassette, replay: ReplayResult): boolean {
  return (
    replay.status === 'diverged' ||
    replay.findings.some((finding) => finding.classification === 'dropped-call') ||
    endingKey(recorded.source, true) !== endingKey(replayEnding(replay), true)
  );
}

/**
 * True when a structural replay that did not diverge still ended otherwise
 * than the recording: another status, or a failure with another code or at
 * another step. Outcomes are left out, since a structural replay does not
 * judge them: it turns every final turn into `{ judged: false }`, so a
 * recording that failed its outcome checks on a model turn counts as completed.
 */
export function structuralEndingChanged(recorded: Cassette, replay: ReplayResult): boolean {
  return (
    replay.status !== 'diverged' && endingKey(unjudged(recorded), false) !== endingKey(replayEnding(replay), false)
  );
}

const replayEnding = (replay: ReplayResult): Ending => ({
  status: replay.status,
  outcome: replay.outcome,
  error: replay.error === null ? null : { code: replay.error.code, step: replay.error.step },
});

// The message is left out: it may quote content, and a structural cassette holds it shaped.
const endingKey = (ending: Ending, withOutcome: boolean): string =>
  stableJson({
    status: ending.status,
    outcome: withOutcome ? ending.outcome : null,
    code: ending.error?.code ?? null,
    step: ending.error?.step ?? null,
  });

// The recording's ending as a structural replay would reach it: a final model turn is never rejected.
function unjudged(recorded: Cassette): Ending {
  const { error } = recorded.source;
  const failedStep = recorded.entries.find((entry) => entry.step === error?.step);
  if (error?.code === 'VALIDATION_FAILED' && failedStep?.kind === 'model')
    return { status: 'completed', outcome: null, error: null };
  return recorded.source;
}
