import { ForkpointError } from '../errors/index.js';
import type { Divergence, DivergenceClass, FieldChange } from '../vocabulary/index.js';
import { inWritingOrder } from './divergence.js';

/**
 * A replay that left its recording, as an error with code `REPLAY_DIVERGED`.
 * It carries the whole finding as typed fields: where (step, `kind#index`),
 * the hash asked for and the hashes recorded there, the class and the
 * field-level diff. The replaying transport throws it on a strict miss;
 * `engine.replay` returns it, as `ReplayResult.divergence`, so a caller
 * chooses whether to throw it. As JSON it is the plain {@link Divergence}
 * (see {@link ReplayDivergence.toJSON}), as a stored finding is.
 *
 * @example
 * ```ts
 * const result = await engine.replay({ agent, cassette, mode: 'strict' });
 * if (result.status === 'diverged') throw result.divergence;
 * ```
 */
export class ReplayDivergence extends ForkpointError {
  readonly classification: DivergenceClass;
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly actualHash: string | null;
  readonly recordedHashes: readonly string[];
  readonly changed: readonly string[];
  readonly diff: readonly FieldChange[];

  constructor(
    /** The replay's run id: the run that diverged, not the one it replays. */
    readonly runId: string,
    /** The finding as a plain object, the same as {@link ReplayDivergence.toJSON} returns. */
    readonly divergence: Divergence,
  ) {
    super('REPLAY_DIVERGED', divergence.message);
    this.classification = divergence.classification;
    this.step = divergence.step;
    this.kind = divergence.kind;
    this.index = divergence.index;
    this.actualHash = divergence.actualHash;
    this.recordedHashes = divergence.recordedHashes;
    this.changed = divergence.changed;
    this.diff = divergence.diff;
  }

  /**
   * The plain finding, field for field, in the order the transport writes a
   * finding: `--json` output keeps the shape it had before this was an error,
   * the shape of the run's stored findings, with neither the run id nor the
   * error's own fields (code, stack).
   */
  toJSON(): Divergence {
    return inWritingOrder(this.divergence);
  }
}
