import type { CalledOptions } from './check-called.js';
import { checkCalled } from './check-called.js';
import { checkCalledWith } from './check-called-with.js';
import { checkStepsAtMost } from './check-steps-at-most.js';
import type { TrajectoryOptions } from './check-trajectory.js';
import { checkTrajectory } from './check-trajectory.js';
import { printTrajectory } from './print-trajectory.js';
import type { TrajectoryCheck } from './trajectory-check.js';
import type { Trajectory } from './trajectory-of.js';
import { trajectoryOf } from './trajectory-of.js';

/**
 * What the trajectory matchers use of vitest's matcher context: its equality,
 * which understands asymmetric matchers (`expect.objectContaining`), and its
 * printer, which shows them as vitest does.
 */
export interface TrajectoryMatcherContext {
  readonly equals: (actual: unknown, expected: unknown) => boolean;
  readonly utils: { readonly stringify: (value: unknown, maxDepth?: number, options?: { min?: boolean }) => string };
}

// The message says why the expectation failed, or why its `.not` did (a check's message is written for
// whichever way it went), then the trajectory as `show` prints it, the step it names marked.
const judged = (trajectory: Trajectory, check: TrajectoryCheck) => ({
  pass: check.pass,
  message: () => `${check.message}\n\n${printTrajectory(trajectory, check.step)}`,
});

/**
 * Assertions on a run's trajectory: which tools it called, in what order,
 * with what input, in how many steps. Each takes a run with its steps (see
 * `TrajectorySubject`); a failure names the first step that broke the
 * expectation and prints the steps as `forkpoint show` does. Part of
 * {@link forkpointMatchers}; the checks behind them are exported too.
 */
export const trajectoryMatchers = {
  /** Passes when the run called `tool` (a step of its kind): at least once, or exactly `options.times` times. */
  toHaveCalled(received: unknown, tool: string, options?: CalledOptions) {
    const trajectory = trajectoryOf(received, { payloads: false });
    return judged(trajectory, checkCalled(trajectory.steps, tool, options));
  },
  /** Passes when the run's tool calls match `expected` in the order mode (default `strict`; see `TrajectoryOrder`). */
  toHaveTrajectory(received: unknown, expected: readonly string[], options?: TrajectoryOptions) {
    const trajectory = trajectoryOf(received, { payloads: false });
    return judged(trajectory, checkTrajectory(trajectory.steps, expected, options));
  },
  /** Passes when the run made at most `limit` steps, of every kind. */
  toHaveStepsAtMost(received: unknown, limit: number) {
    const trajectory = trajectoryOf(received, { payloads: false });
    return judged(trajectory, checkStepsAtMost(trajectory.steps, limit));
  },
  /** Passes when some call of `tool` had an input equal to `expected`: a plain value, or an asymmetric matcher. */
  toHaveCalledWith(this: TrajectoryMatcherContext, received: unknown, tool: string, expected: unknown) {
    const trajectory = trajectoryOf(received, { payloads: true });
    return judged(
      trajectory,
      checkCalledWith(trajectory.steps, tool, expected, {
        equals: (actual, wanted) => this.equals(actual, wanted),
        print: (value) => this.utils.stringify(value, 10, { min: true }),
      }),
    );
  },
};
