import type { Cassette } from '../cassette/index.js';
import { CANONICAL_FORM, CassetteIndex } from '../cassette/index.js';
import type { EngineDeps } from '../driver/index.js';
import { ForkpointError } from '../errors/index.js';
import { WRAPPED_LOOP_VERSION } from '../machine/index.js';
import type { FullTierUse } from '../read/index.js';
import { fullCassetteOf, requireRun, requireUnexpiredCassette } from '../read/index.js';
import type { RunRecord } from '../store/index.js';

/** A recording a session answers from: its cassette, indexed, and its run when the store holds it. */
export interface SessionRecording {
  readonly cassette: Cassette;
  readonly index: CassetteIndex;
  readonly run: RunRecord | undefined;
}

/**
 * The recording a replay or a fork by prefix replay answers from: a stored
 * run (its full tier, which must not have expired), or a cassette read from a
 * file. It must be a wrapped loop's, and this loop's (`AGENT_MISMATCH`
 * otherwise, saying which loop made it and what to use instead).
 */
export async function recordingFor(
  deps: Pick<EngineDeps, 'store' | 'clock'>,
  source: string | Cassette,
  agent: string,
  use: FullTierUse,
): Promise<SessionRecording> {
  const now = deps.clock();
  let run: RunRecord | undefined;
  let cassette: Cassette;
  if (typeof source === 'string') {
    run = await requireRun(deps.store, source);
    requireWrapped(run.machineVersion === WRAPPED_LOOP_VERSION, `run ${run.runId}`, run.agentName, agent);
    cassette = await fullCassetteOf(deps.store, run, now, use);
  } else {
    cassette = source;
    const origin = `of run ${cassette.source.runId}`;
    requireWrapped(cassette.loop === 'wrapped', `the cassette ${origin}`, cassette.agent.name, agent);
    if ((cassette.tier ?? 'full') === 'structural')
      throw new ForkpointError(
        'CASSETTE_INVALID',
        `the cassette ${origin} holds shapes only (structural tier); a session replays the full tier, whose answers the SDK parses`,
      );
    requireUnexpiredCassette(cassette, origin, now);
  }
  if (cassette.canonicalForm !== CANONICAL_FORM)
    throw new ForkpointError(
      'CASSETTE_INVALID',
      `the recording was hashed in canonical form ${cassette.canonicalForm}; this forkpoint hashes in ${CANONICAL_FORM}, so no request could match`,
    );
  requireSameLoop(cassette.agent.name, agent, cassette.source.runId);
  return { cassette, index: new CassetteIndex(cassette), run };
}

function requireWrapped(wrapped: boolean, what: string, recordedBy: string, agent: string): void {
  if (wrapped) return;
  throw new ForkpointError(
    'AGENT_MISMATCH',
    `${what} was driven by forkpoint (agent ${recordedBy}), not recorded by a wrapped loop; a session replays what a session recorded: replay it with engine.replay or \`forkpoint replay\`, or record ${agent} with a session`,
  );
}

function requireSameLoop(recordedBy: string, agent: string, runId: string): void {
  if (recordedBy === agent) return;
  throw new ForkpointError(
    'AGENT_MISMATCH',
    `run ${runId} is a recording of loop ${recordedBy}, and this session wraps ${agent}: its calls would not be this loop's. Replay it with agent: '${recordedBy}', or record ${agent}`,
  );
}
