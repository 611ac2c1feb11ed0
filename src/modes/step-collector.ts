import type { RunWatcher } from '../driver/index.js';
import type { StepView } from '../read/index.js';
import { stepViewer } from '../read/index.js';

/** A watcher that keeps the views of the steps it is told of, and the steps kept. */
export interface StepCollector {
  readonly watcher: RunWatcher;
  /** The steps so far, in order. */
  readonly steps: readonly StepView[];
}

/** What a {@link stepCollector} passes on as it collects. */
export interface StepCollectorOptions {
  /** The attempt of the run that makes the steps: 1, or a resume's. */
  readonly attempt?: number;
  /** Told once the run exists, under the id it was stored with. */
  readonly onStarted?: (runId: string) => void;
  /** Told of every step once it is committed. */
  readonly onStep?: (step: StepView) => void;
}

/**
 * Collects the steps a mode makes as they are committed, so that its result
 * holds them without reading its run back.
 */
export function stepCollector(options: StepCollectorOptions = {}): StepCollector {
  const steps: StepView[] = [];
  const viewOf = stepViewer(options.attempt);
  return {
    steps,
    watcher: {
      started: (runId) => options.onStarted?.(runId),
      committed: (completed) => {
        const view = viewOf(completed);
        steps.push(view);
        options.onStep?.(view);
      },
    },
  };
}
