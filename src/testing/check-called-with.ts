import { isDeepStrictEqual } from 'node:util';
import type { TrajectoryCheck } from './trajectory-check.js';
import type { TrajectoryStep } from './trajectory.js';
import { describeCall, toolCallsOf } from './trajectory.js';
import { assertToolName } from './trajectory-check.js';
import { stepList } from './check-words.js';

/**
 * How {@link checkCalledWith} compares and shows inputs. The matcher passes
 * vitest's own (`this.equals`, `this.utils.stringify`), so that an asymmetric
 * matcher such as `expect.objectContaining({...})` works as the expected input.
 */
export interface CalledWithOptions {
  /** Whether a call's input matches the expected one; default a deep equality. */
  readonly equals?: (actual: unknown, expected: unknown) => boolean;
  /** A value in a message; default JSON. */
  readonly print?: (value: unknown) => string;
}

/**
 * Whether a run called `tool` at least once with an input that `equals` the
 * expected one. It names the first call of the tool when none matched (or
 * that the tool was never called), and the first call that matched (to a
 * `.not`).
 *
 * @example
 * ```ts
 * checkCalledWith(incident.steps, 'ocr_document', { document_id: 'DOC-77120' }).pass; // true
 * ```
 */
export function checkCalledWith(
  steps: readonly TrajectoryStep[],
  tool: string,
  expected: unknown,
  options: CalledWithOptions = {},
): TrajectoryCheck {
  assertToolName(tool);
  const equals = options.equals ?? isDeepStrictEqual;
  const print = options.print ?? asJson;
  const calls = toolCallsOf(steps).filter((call) => call.tool === tool);
  const match = calls.find((call) => equals(call.input, expected));
  if (match !== undefined)
    return {
      pass: true,
      step: match.step,
      message: `${describeCall(steps, match)} was called with ${print(match.input)}; expected no call with ${print(expected)}`,
    };
  const [first, ...rest] = calls;
  if (first === undefined)
    return {
      pass: false,
      step: null,
      message: `${tool} was never called in ${steps.length} steps; expected a call with ${print(expected)}`,
    };
  const others =
    rest.length === 0 ? '' : `; nor did its other calls (${stepList(rest.map((call) => call.step))}) match`;
  return {
    pass: false,
    step: first.step,
    message: `${describeCall(steps, first)} was called with ${print(first.input)}; expected ${print(expected)}${others}`,
  };
}

// JSON, or the value's own words where JSON has none (`undefined`, a function).
function asJson(value: unknown): string {
  const text: unknown = JSON.stringify(value);
  return typeof text === 'string' ? text : String(value);
}
