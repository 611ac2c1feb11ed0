import { ReplayDivergence } from '../analysis/index.js';
import type { RunView } from '../read/index.js';
import type { ParentLink } from '../store/index.js';

/** A recording session's run. */
export interface WrappedRecordResult extends RunView {
  readonly mode: 'record';
  readonly status: 'completed' | 'failed';
  readonly divergence: null;
}

/** A replay session's run: `diverged` with the first divergence when the loop left the recording. */
export interface WrappedReplayResult extends RunView {
  readonly mode: 'replay:strict' | 'replay:fidelity';
  readonly status: 'completed' | 'failed' | 'diverged';
  /** The first divergence, or null when every call the loop made was the recorded one. */
  readonly divergence: ReplayDivergence | null;
}

/** A fork by prefix replay's run: its parent's steps before the fork, its own from there. */
export interface WrappedForkResult extends RunView {
  readonly mode: 'fork:prefix';
  readonly status: 'completed' | 'failed';
  readonly parent: ParentLink;
  readonly divergence: null;
}

/** What closing a session gives: its run, typed by its mode, so that one cannot be taken for another. */
export type SessionResult = WrappedRecordResult | WrappedReplayResult | WrappedForkResult;

/** The divergence an error carries, directly or anywhere in its `cause` chain (an SDK wraps what its `fetch` threw). */
export function replayDivergenceIn(error: unknown): ReplayDivergence | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    if (current instanceof ReplayDivergence) return current;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
