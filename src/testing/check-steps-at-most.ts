import type { TrajectoryCheck } from './trajectory-check.js';
import type { TrajectoryStep } from './trajectory.js';
import { assertCount } from './trajectory-check.js';

/**
 * Whether a run made at most `limit` steps, every kind counted (model
 * responses, tool calls and each retried attempt, approvals; a fork's
 * inherited steps too). It names the first step past the limit.
 *
 * @example
 * ```ts
 * checkStepsAtMost(incident.steps, 9).pass; // true: the incident made 9
 * ```
 */
export function checkStepsAtMost(steps: readonly TrajectoryStep[], limit: number): TrajectoryCheck {
  assertCount(limit, 'the limit');
  const past = steps[limit];
  if (past !== undefined)
    return {
      pass: false,
      step: past.step,
      message: `step ${past.step} ${past.kind}#${past.index} is past the limit of ${limit} (the run made ${steps.length} steps)`,
    };
  const last = steps.at(-1);
  return {
    pass: true,
    step: last?.step ?? null,
    message: `the run made ${steps.length} steps, within the limit of ${limit}; expected more than ${limit}`,
  };
}
