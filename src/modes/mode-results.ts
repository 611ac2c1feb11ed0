import type { ReplayDivergence } from '../analysis/index.js';
import type { Divergence } from '../vocabulary/index.js';
import type { CaptureReport } from '../retention/index.js';
import type { PendingApproval, RunSummary, RunView, StepView } from '../read/index.js';
import type { ParentLink, RunResume } from '../store/index.js';
import type { ApprovalAnswer } from '../conversation/index.js';

/** The run a `record` made. Its mode is always `record` and it has no parent. */
export interface RecordResult extends RunView {
  readonly mode: 'record';
  /** `awaiting-approval`: the run stopped at rest before a call that needs a person's approval. */
  readonly status: 'completed' | 'failed' | 'awaiting-approval';
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
  readonly status: 'completed' | 'failed' | 'awaiting-approval';
  readonly source: string;
}

/**
 * A fork's result: the run, and the steps the fork made. Its trajectory is
 * its parent's steps 1..N-1 (`inherited`), then its own; `engine.getRun(runId)`
 * reads all of it. The result holds only its own steps so that a fork costs
 * what it runs, however long the trajectory it inherits: over an asynchronous
 * store, reading 5,000 inherited steps would cost a fork several times the
 * restore it needs.
 */
export interface ForkResult extends RunSummary {
  readonly mode: 'fork';
  readonly status: 'completed' | 'failed' | 'awaiting-approval';
  readonly parent: ParentLink;
  /** The steps this fork made: step N (`override`, or `live` for a prompt or model change), then `live` or `simulated`. */
  readonly ownSteps: readonly StepView[];
  /** The call a person is asked to approve when the fork stopped at rest waiting for one (see `RunView.pendingApproval`). */
  readonly pendingApproval: PendingApproval | null;
}

/**
 * A resumed run: the record, fork or re-execution it was, continued in place
 * (so its mode is its own), with the resume that was just made.
 */
export interface ResumeResult extends RunView {
  readonly mode: 'record' | 'fork' | 'reexecution';
  readonly status: 'completed' | 'failed' | 'awaiting-approval';
  readonly resumed: RunResume;
}

/**
 * A run a person's answer let go on: the record, fork or re-execution it
 * was, continued in place, with the answer given and the attempt it began.
 * Its status is how it ended, or `awaiting-approval` when it stopped at
 * another call that needs one.
 */
export interface ApproveResult extends RunView {
  readonly mode: 'record' | 'fork' | 'reexecution';
  readonly status: 'completed' | 'failed' | 'awaiting-approval';
  /** The answer, as the run's approval step holds it. */
  readonly approval: ApprovalAnswer;
  readonly resumed: RunResume;
}
