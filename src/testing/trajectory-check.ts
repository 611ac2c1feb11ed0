import { APPROVAL_KIND } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';

/**
 * What a trajectory check found. `step` is the step its message names: the
 * first that broke the expectation, or, on a pass, the first that met it
 * (what a `.not` names); null when no step did (a call that never came).
 */
export interface TrajectoryCheck {
  readonly pass: boolean;
  /**
   * When `pass` is false, why the expectation failed; when it is true, why
   * its negation (`.not`) fails. Either way it names the step where one does.
   */
  readonly message: string;
  readonly step: number | null;
}

/**
 * Refuses a name no call can have: `model` and `approval` steps are not tool
 * calls, so a check of them would pass or fail on nothing (`.not` vacuously).
 */
export function assertToolName(tool: unknown): asserts tool is string {
  if (typeof tool !== 'string' || tool === '')
    throw new ForkpointError('USAGE', `a tool call is named by its tool's name, not ${JSON.stringify(tool)}`);
  if (tool === 'model')
    throw new ForkpointError(
      'USAGE',
      'model steps are not tool calls: count them in run.steps, or bound the whole run with toHaveStepsAtMost',
    );
  if (tool === APPROVAL_KIND)
    throw new ForkpointError(
      'USAGE',
      "approval steps are a person's answer, not tool calls: read them in run.steps (kind 'approval'); an approved call is a step of its tool's own",
    );
}

/** Refuses a count that is not a whole number of zero or more. */
export function assertCount(count: unknown, what: string): asserts count is number {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
    throw new ForkpointError('USAGE', `${what} must be a whole number of 0 or more, not ${String(count)}`);
}
