import { ForkpointError } from '../errors/index.js';
import type { Divergence } from './divergence.js';

/**
 * Raised by a strict replay when the agent asks something the cassette cannot
 * answer. It carries the whole finding: where, the two hashes, the class and
 * the field-level diff. Code `REPLAY_DIVERGED`.
 */
export class ReplayDivergence extends ForkpointError {
  constructor(
    readonly runId: string,
    readonly divergence: Divergence,
  ) {
    super('REPLAY_DIVERGED', divergence.message);
  }
}
