import type { RunSummary, RunView, StepView } from '../../engine/index.js';

/**
 * How runs read in words, given by the front end that starts the view (the
 * CLI gives its own), so that a page says of a run exactly what `show` and
 * `runs` print: the headline with the mode label, each step's one-line
 * summary, and how the run ended.
 */
export interface RunWords {
  /** The run's first line as the CLI prints it: the mode label first, then what kind of run it is. */
  headline(run: RunSummary | RunView): string;
  /** What a step's response said, in one line. */
  step(run: Pick<RunSummary, 'scenario'>, step: Pick<StepView, 'kind' | 'response'>): string;
  /** How a run ended, in one line. */
  ending(run: Pick<RunSummary, 'scenario' | 'status' | 'outcome' | 'error'>): string;
}
