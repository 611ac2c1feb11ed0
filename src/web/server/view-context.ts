import type { Engine } from '../../engine/index.js';
import type { RunWords } from '../pages/run-words.js';

/** What every route reads through: the engine over the store, and the words of the runs' scenarios. */
export interface ViewContext {
  readonly engine: Engine;
  /** The words of runs of these scenarios (each loaded once per request). */
  readonly words: (scenarios: readonly (string | null)[]) => Promise<RunWords>;
}
