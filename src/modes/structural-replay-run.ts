import type { AgentBuild } from '../agent/index.js';
import { ReplayDivergence } from '../analysis/index.js';
import type { DriveResult, EngineDeps } from '../driver/index.js';
import { CassetteIndex } from '../cassette/index.js';
import { replayingTransport } from '../transports/index.js';
import type { ReplayingTransport } from '../transports/index.js';
import type { ReplayResult } from './mode-results.js';
import type { ReplaySource } from './replay-over-cassette.js';
import { findingsOf, replayOverCassette, replayRunId } from './replay-over-cassette.js';
import { structuralKeys } from './structural-keys.js';

/**
 * A structural replay: strict, over a structural cassette, each request keyed
 * by its shape rather than its text. A shaped final turn says nothing about
 * the outcome, so it checks the trajectory only: a recorded call the build
 * never made (it stopped before the recording did) is a divergence too.
 */
export async function structuralReplayRun(
  deps: EngineDeps,
  agent: AgentBuild,
  source: ReplaySource,
): Promise<ReplayResult> {
  const runId = replayRunId(deps, source, agent, true);
  const transport = replayingTransport({
    mode: 'strict',
    index: new CassetteIndex(source.cassette),
    runId,
    keys: structuralKeys(),
  });
  return replayOverCassette(deps, source, runId, {
    mode: 'replay:structural',
    agent: withoutOutcomeJudgement(agent),
    tier: 'structural',
    sideEffects: null,
    transport,
    // Judged on the drive as it ended: an early end it turns into a divergence still keeps its dropped calls.
    judge: (result) => ({
      result: stopAtDroppedCall(result, runId, transport),
      findings: findingsOf(result, transport),
    }),
    // The shape did not hold at the first finding, a dropped call as much as a changed one.
    divergenceAmong: (findings) => findings[0],
  });
}

// A strict replay that ends early may be the fix working (its outcome is compared instead); a structural
// replay cannot compare outcomes, so a recorded call the build never made means the trajectory did not hold.
function stopAtDroppedCall(result: DriveResult, runId: string, transport: ReplayingTransport): DriveResult {
  const first = transport.droppedCalls()[0];
  if (result.stoppedBy !== null || first === undefined) return result;
  const error = new ReplayDivergence(runId, first);
  return {
    ...result,
    stoppedBy: { failure: { code: 'REPLAY_DIVERGED', message: error.message, step: first.step }, error },
  };
}

/** The build with its outcome parser and checks replaced: every final turn ends the run as `{ judged: false }`. */
function withoutOutcomeJudgement(agent: AgentBuild): AgentBuild {
  const { validateOutcome: _validate, ...rest } = agent;
  return { ...rest, parseOutcome: () => ({ ok: true, outcome: { judged: false } }) };
}
