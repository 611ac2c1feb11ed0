import type { Cassette } from '../cassette/index.js';
import type { JsonObject } from '../json/index.js';
import { canonicalJson } from '../json/index.js';
import { memoryStore } from '../store/index.js';
import type { Session, WrappedReplayResult } from '../wrap/index.js';
import { createSession } from '../wrap/index.js';

/**
 * A loop forkpoint does not drive, as a test runs it: wrap its SDK client
 * and tools with `session`, run it once, and give back its outcome (or
 * nothing, to compare none).
 */
export type WrappedLoop = (session: Session) => Promise<JsonObject | undefined> | Promise<void>;

/** Whether a wrapped loop's cassette replays strictly through the loop as it is now, and why not. */
export interface WrappedReplayCheck {
  readonly pass: boolean;
  readonly message: string;
  readonly result: WrappedReplayResult;
}

/**
 * Replays a wrapped loop's cassette strictly through `loop`, in a throwaway
 * store: every model and tool call is answered from the cassette, none
 * reaches the network or a tool. It passes when every call was the recorded
 * one and, if the loop gives an outcome, it is the recorded outcome.
 */
export async function checkWrappedReplay(
  cassette: Cassette,
  loop: WrappedLoop,
  name = cassette.source.runId,
): Promise<WrappedReplayCheck> {
  const store = memoryStore();
  try {
    const session = await createSession({
      store,
      mode: 'replay:strict',
      agent: cassette.agent.name,
      build: cassette.agent.build,
      source: cassette,
    });
    let outcome: JsonObject | undefined;
    let thrown: { readonly error: unknown } | undefined;
    try {
      outcome = (await loop(session)) ?? undefined;
    } catch (error) {
      thrown = { error };
    }
    const result = (await session.close(
      thrown !== undefined ? { error: thrown.error } : outcome === undefined ? {} : { outcome },
    )) as WrappedReplayResult;
    return judged(name, cassette, result, outcome);
  } finally {
    await store.close();
  }
}

function judged(
  name: string,
  cassette: Cassette,
  result: WrappedReplayResult,
  outcome: JsonObject | undefined,
): WrappedReplayCheck {
  const { divergence } = result;
  if (divergence !== null) {
    const diff = divergence.diff.map((change) => `\n  ${change.path}: ${change.before} -> ${change.after}`).join('');
    return { pass: false, message: `${name} diverged: ${divergence.message}${diff}`, result };
  }
  if (result.status !== 'completed')
    return {
      pass: false,
      message: `${name} did not replay: ${result.error?.code ?? result.status}: ${result.error?.message ?? ''}`,
      result,
    };
  const recorded = cassette.source.outcome;
  if (outcome !== undefined && recorded !== null && canonicalJson(outcome) !== canonicalJson(recorded))
    return {
      pass: false,
      message: `${name} replayed every call, but the loop ended otherwise: recorded ${canonicalJson(recorded)}, now ${canonicalJson(outcome)}`,
      result,
    };
  return { pass: true, message: `${name} replays strictly through the loop and ends as recorded`, result };
}
