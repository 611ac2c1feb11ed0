import type { ContinuedFrom } from '../checkpoint/index.js';
import type { UsageTotal } from '../pricing/index.js';
import type { StepShape } from '../signature/index.js';

/**
 * Where a run's rows start: a run from its input starts at checkpoint 0 (row
 * 0 is written with the run); a fork or a resume continues after a restored
 * checkpoint, and its rows start after it.
 */
export interface RunOrigin {
  /** The checkpoint the run continues from; undefined for a run from its input. */
  readonly continuedFrom: ContinuedFrom | undefined;
  /**
   * The tokens of the run's own steps before its rows start, which its stored
   * totals add on to: a resumed run's earlier attempts'; none for a new run or
   * a fork (whose inherited steps are its parent's).
   */
  readonly usage: readonly UsageTotal[];
  /** The shapes of the trajectory's steps before the run's rows start, which its failure signature begins with. */
  readonly trajectory: readonly StepShape[];
}

/** A run from its input: record, replay, re-execution. */
export const FROM_INPUT: RunOrigin = { continuedFrom: undefined, usage: [], trajectory: [] };

/**
 * A run that continues after a restored checkpoint: a fork, or a resume with
 * its earlier attempts' tokens; `trajectory` holds the shapes of the steps
 * before the checkpoint (see `stepShapesOf`).
 */
export function continuedFrom(
  checkpoint: ContinuedFrom,
  trajectory: readonly StepShape[],
  usage: readonly UsageTotal[] = [],
): RunOrigin {
  return { continuedFrom: checkpoint, usage, trajectory };
}
