import type { TrajectoryCheck } from './trajectory-check.js';
import type { ToolCall, TrajectoryStep } from './trajectory.js';
import { describeCall, toolCallsOf } from './trajectory.js';
import { assertCount, assertToolName } from './trajectory-check.js';
import { stepList, times } from './check-words.js';

/** Options of {@link checkCalled}. */
export interface CalledOptions {
  /** Exactly this many calls (each attempt of a retried call counts); absent: at least one. */
  readonly times?: number;
}

/**
 * Whether a run called `tool`: at least once, or exactly `options.times`
 * times. It names the call that broke the expectation: the first call (to
 * a `.not`), or the first call past the count.
 *
 * @example
 * ```ts
 * checkCalled(replay.steps, 'estimate_repair').pass; // false for patched's replay of the incident
 * ```
 */
export function checkCalled(
  steps: readonly TrajectoryStep[],
  tool: string,
  options: CalledOptions = {},
): TrajectoryCheck {
  assertToolName(tool);
  const calls = toolCallsOf(steps).filter((call) => call.tool === tool);
  if (options.times === undefined) return atLeastOnce(steps, tool, calls);
  assertCount(options.times, 'times');
  const expected = options.times;
  const past = calls[expected];
  if (past !== undefined)
    return {
      pass: false,
      step: past.step,
      message:
        expected === 0
          ? `${describeCall(steps, past)} was called; expected it never to be`
          : `${describeCall(steps, past)} was call ${expected + 1} to ${tool}; expected exactly ${times(expected)} (${stepList(calls.slice(0, expected).map((call) => call.step))})`,
    };
  if (calls.length < expected)
    return {
      pass: false,
      step: null,
      message: `${tool} was called ${calls.length === 0 ? 'never' : `${times(calls.length)} (${stepList(calls.map((call) => call.step))})`} in ${steps.length} steps; expected exactly ${times(expected)}`,
    };
  const last = calls.at(-1);
  return {
    pass: true,
    step: last?.step ?? null,
    message:
      last === undefined
        ? `${tool} was never called in ${steps.length} steps; expected it to be`
        : `${tool} was called ${times(expected)} (${stepList(calls.map((call) => call.step))}); expected any other number of calls`,
  };
}

function atLeastOnce(steps: readonly TrajectoryStep[], tool: string, calls: readonly ToolCall[]): TrajectoryCheck {
  const [first, ...rest] = calls;
  if (first === undefined)
    return { pass: false, step: null, message: `${tool} was never called in ${steps.length} steps; expected it to be` };
  const more = rest.length === 0 ? '' : `, and ${times(rest.length)} more (${stepList(rest.map((call) => call.step))})`;
  return {
    pass: true,
    step: first.step,
    message: `${describeCall(steps, first)} was called${more}; expected it never to be`,
  };
}
