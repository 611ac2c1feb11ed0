import type { Divergence, ReplayDivergence } from '../analysis/index.js';
import type { CaptureReport } from '../retention/index.js';
import type { RunView } from '../read/index.js';
import type { ParentLink, RunResume } from '../store/index.js';

/** The run a `record` made. Its mode is always `record` and it has no parent. */
export interface RecordResult extends RunView {
  readonly mode: 'record';
  readonly status: 'completed' | 'failed';
  readonly parent: null;
  /** What the capture policy kept, when one was given. */
  readonly capture?: CaptureReport;
}

/** A replay's result. Its mode says which replay it was; its steps are all `recorded` unless it went live. */
export interface ReplayResult extends RunView {
  readonly mode: 'replay:strict' | 'replay:fidelity' | 'replay:structural';
  readonly status: 'completed' | 'failed' | 'diverged';
  readonly source: string;
  /** What the replay found: a replay's own findings are divergences, never shaped ones. */
  readonly findings: readonly Divergence[];
  /**
   * The first divergence, or null when the replay stayed on the recording
   * (a dropped call counts only in a structural replay). It is a
   * {@link ReplayDivergence}, returned rather than thrown, so
   * `if (result.status === 'diverged') throw result.divergence;` turns it
   * into an error; as JSON it is the same plain object as its entry in
   * `findings`.
   */
  readonly divergence: ReplayDivergence | null;
}

/** A re-execution's result: a second run against the world at another date, not a replay. */
export interface ReexecutionResult extends RunView {
  readonly mode: 'reexecution';
  readonly status: 'completed' | 'failed';
  readonly source: string;
}

/**
 * A fork's result: steps 1..N-1 `inherited`, step N `override` (or `live` for a prompt or model change), then `live`.
 * Its `steps` are read with the run once the fork has ended.
 */
export interface ForkResult extends RunView {
  readonly mode: 'fork';
  readonly status: 'completed' | 'failed';
  readonly parent: ParentLink;
}

/**
 * A resumed run: the record, fork or re-execution it was, continued in place
 * (so its mode is its own), with the resume that was just made.
 */
export type ResumeResult = (Omit<RecordResult, 'capture'> | ForkResult | ReexecutionResult) & {
  readonly status: 'completed' | 'failed';
  readonly resumed: RunResume;
};
