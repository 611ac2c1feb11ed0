import type { ContinuedFrom } from '../checkpoint/index.js';

/**
 * Where a run's rows start: a run from its input starts at checkpoint 0 (row
 * 0 is written with the run); a fork or a resume continues after a restored
 * checkpoint, and its rows start after it.
 */
export interface RunOrigin {
  /** The checkpoint the run continues from; undefined for a run from its input. */
  readonly continuedFrom: ContinuedFrom | undefined;
}

/** A run from its input: record, replay, re-execution. */
export const FROM_INPUT: RunOrigin = { continuedFrom: undefined };

/** A run that continues after a restored checkpoint: a fork, a resume. */
export function continuedFrom(checkpoint: ContinuedFrom): RunOrigin {
  return { continuedFrom: checkpoint };
}
