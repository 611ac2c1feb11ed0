import type { Cassette } from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import { WRAPPED_LOOP_VERSION } from '../machine/index.js';
import type { RunSummary } from '../read/index.js';
import type { RunRecord } from '../store/index.js';

/** What only a run forkpoint drove can go through: each needs the machine, its state or its build. */
export type DrivenUse = 'fork' | 'resume' | 'replay' | 're-execute' | 'verify';

/** Where a use of a recording reads which loop made it: the stored run, a listing's summary of it, or its cassette. */
export type RecordingOrigin = RunRecord | RunSummary | Cassette;

// Why the use needs the machine, and what does the same for a wrapped loop: a session over that loop.
const INSTEAD: Readonly<Record<DrivenUse, (source: string, agent: string) => string>> = {
  fork: (source, agent) =>
    `so forkpoint cannot fork it from a restored state: fork it by prefix replay, with a fork:prefix session over your loop (createSession({ mode: 'fork:prefix', agent: ${JSON.stringify(agent)}, source: ${source}, atStep, override }))`,
  resume: (source, agent) =>
    `so forkpoint cannot resume it from a restored state: continue it by prefix replay, with a replay:fidelity session over your loop that goes live where the recording ends (createSession({ mode: 'replay:fidelity', agent: ${JSON.stringify(agent)}, source: ${source}, onMiss: 'live' }))`,
  replay: (source, agent) =>
    `so no driven build can replay it: replay it through your loop, with a replay:strict session (createSession({ mode: 'replay:strict', agent: ${JSON.stringify(agent)}, source: ${source} })), or in vitest with forkpoint/testing's describeWrappedCassettes`,
  're-execute': (_source, agent) =>
    `so only your loop can run its input again: with a record session over it (createSession({ mode: 'record', agent: ${JSON.stringify(agent)}, input })), or a replay:fidelity session that keeps the recorded prefix (onMiss: 'live')`,
  verify: (source, agent) =>
    `so no driven build can replay it: verify a fix by replaying it through each build of your loop, with a replay:strict session (createSession({ mode: 'replay:strict', agent: ${JSON.stringify(agent)}, build, source: ${source} })), or in vitest with forkpoint/testing's checkWrappedReplay`,
};

/**
 * Refuses, with `LOOP_NOT_DRIVEN`, a use that needs the driven machine (a
 * fork from a restored state, a resume, a driven replay, a re-execution, a
 * verification) on a recording of a loop forkpoint does not drive: its
 * checkpoints are the loop's conversation, for reading, and only that loop,
 * wrapped by a session, can be run over them. The message names the session
 * mode that does the same by prefix replay. Called before anything is written.
 */
export function requireDriven(recording: RecordingOrigin, use: DrivenUse): void {
  const wrapped = wrappedLoopOf(recording);
  if (wrapped === undefined) return;
  throw new ForkpointError(
    'LOOP_NOT_DRIVEN',
    `${wrapped.what} is a recording of a loop forkpoint does not drive (agent ${JSON.stringify(wrapped.agent)}), ${INSTEAD[use](wrapped.source, wrapped.agent)}`,
    { details: { runId: wrapped.runId } },
  );
}

function wrappedLoopOf(
  recording: RecordingOrigin,
): { readonly what: string; readonly runId: string; readonly source: string; readonly agent: string } | undefined {
  // A session's source: the run's id when the store holds it, the cassette itself when it was read from a file.
  if ('machineVersion' in recording)
    return recording.machineVersion === WRAPPED_LOOP_VERSION
      ? {
          what: `run ${recording.runId}`,
          runId: recording.runId,
          source: JSON.stringify(recording.runId),
          agent: recording.agentName,
        }
      : undefined;
  if (recording.loop !== 'wrapped') return undefined;
  if ('canonicalForm' in recording) {
    const { runId } = recording.source;
    return { what: `the cassette of run ${runId}`, runId, source: 'cassette', agent: recording.agent.name };
  }
  const { runId } = recording;
  return { what: `run ${runId}`, runId, source: JSON.stringify(runId), agent: recording.agent.name };
}
