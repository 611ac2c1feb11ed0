import { ForkpointError } from '../errors/index.js';
import type { TrajectoryCheck } from './trajectory-check.js';
import type { ToolCall, TrajectoryStep } from './trajectory.js';
import { callLabel, describeCall, toolCallsOf } from './trajectory.js';
import { assertToolName } from './trajectory-check.js';
import { stepList, times } from './check-words.js';

/**
 * How a run's tool calls are held against the expected list; the four modes
 * of agentevals' `trajectory_match`, over tool names:
 *
 * - `strict`: exactly the expected calls, in the expected order, none more.
 * - `unordered`: the same calls as a multiset, in any order: each expected
 *   entry is one call (`['ocr_document', 'ocr_document']` wants two).
 * - `subset`: the run made no call beyond the expected ones: each call it
 *   made matches an expected entry of its own (it may make fewer; order is
 *   not checked).
 * - `superset`: the run made every expected call: each expected entry
 *   matches a call of its own (it may make more; order is not checked).
 */
export type TrajectoryOrder = 'strict' | 'unordered' | 'subset' | 'superset';

const ORDERS: readonly TrajectoryOrder[] = ['strict', 'unordered', 'subset', 'superset'];

/** Options of {@link checkTrajectory}. */
export interface TrajectoryOptions {
  /** Default `strict`. */
  readonly order?: TrajectoryOrder;
}

/**
 * Whether a run's tool calls (model and approval steps are not calls; each
 * attempt of a retried call is one) match `expected` in the given order
 * mode. It names the first call that broke the expectation: in `strict`, the
 * first out of place; in `unordered` and `subset`, the first beyond the
 * expected ones; a call expected but never made has no step, and is named
 * as missing at the run's end.
 *
 * @example
 * ```ts
 * checkTrajectory(patched.steps, ['fetch_claim', 'ocr_document'], { order: 'strict' }).pass; // true
 * ```
 */
export function checkTrajectory(
  steps: readonly TrajectoryStep[],
  expected: readonly string[],
  options: TrajectoryOptions = {},
): TrajectoryCheck {
  const order = options.order ?? 'strict';
  if (!ORDERS.includes(order))
    throw new ForkpointError('USAGE', `order is one of ${ORDERS.join(', ')}, not ${JSON.stringify(order)}`);
  if (!Array.isArray(expected)) throw new ForkpointError('USAGE', 'the expected trajectory is a list of tool names');
  for (const tool of expected) assertToolName(tool);
  const calls = toolCallsOf(steps);
  const found = order === 'strict' ? strictly(steps, expected, calls) : matched(steps, expected, calls, order);
  const lists = `\n  expected (${order}): ${expected.join(', ') || 'no calls'}\n  called: ${calls.map(callLabel).join(', ') || 'nothing'}`;
  return { ...found, message: `${found.message}${lists}` };
}

const PASSED: Readonly<Record<TrajectoryOrder, string>> = {
  strict: 'the run made exactly the expected calls, in order',
  unordered: 'the run made exactly the expected calls, in some order',
  subset: 'every call the run made is among the expected ones',
  superset: 'the run made every expected call',
};

function strictly(steps: readonly TrajectoryStep[], expected: readonly string[], calls: readonly ToolCall[]) {
  for (let i = 0; i < Math.max(calls.length, expected.length); i++) {
    const call = calls[i];
    const want = expected[i];
    if (call !== undefined && call.tool === want) continue;
    if (call === undefined)
      return {
        pass: false,
        step: null,
        message: `the run ended at step ${steps.at(-1)?.step ?? 0} after ${calls.length} call${calls.length === 1 ? '' : 's'}; expected ${want ?? ''} next (call ${i + 1} of ${expected.length})`,
      };
    return {
      pass: false,
      step: call.step,
      message:
        want === undefined
          ? `${describeCall(steps, call)} is call ${i + 1}, past the ${expected.length} expected`
          : `step ${call.step}: expected ${want} (call ${i + 1} of ${expected.length}), got ${callLabel(call)}`,
    };
  }
  return { pass: true, step: null, message: `${PASSED.strict}; expected it not to` };
}

function matched(
  steps: readonly TrajectoryStep[],
  expected: readonly string[],
  calls: readonly ToolCall[],
  order: Exclude<TrajectoryOrder, 'strict'>,
) {
  const wanted = countOf(expected);
  // Each call takes one expected entry of its tool, in trajectory order: the first call left without one is
  // the first that broke a subset or an unordered match.
  const left = new Map(wanted);
  const extras: ToolCall[] = [];
  for (const call of calls) {
    const open = left.get(call.tool) ?? 0;
    if (open > 0) left.set(call.tool, open - 1);
    else extras.push(call);
  }
  const missing = [...left].filter(([, open]) => open > 0);
  const extra = order === 'superset' ? undefined : extras[0];
  const short = order === 'subset' ? [] : missing;
  const missed = short.map(([tool, open]) => {
    const want = wanted.get(tool) ?? open;
    const made = want - open;
    return want === 1 ? tool : `${tool} ${times(want)} (it was called ${made === 0 ? 'never' : times(made)})`;
  });
  const end = `by its last step (${steps.at(-1)?.step ?? 0}) the run had not called ${missed.join(' or ')}`;
  if (extra !== undefined) {
    const allowed = wanted.get(extra.tool) ?? 0;
    const earlier = calls.filter((call) => call.tool === extra.tool && call.step < extra.step).map((call) => call.step);
    const why =
      allowed === 0
        ? `${extra.tool} is not expected`
        : `${extra.tool} is expected ${times(allowed)}: ${stepList(earlier)} made ${allowed === 1 ? 'it' : 'them'}`;
    const beyond = `${describeCall(steps, extra)} is a call beyond the expected ones (${why})`;
    return { pass: false, step: extra.step, message: missed.length === 0 ? beyond : `${beyond}; and ${end}` };
  }
  if (missed.length > 0) return { pass: false, step: null, message: end };
  return { pass: true, step: null, message: `${PASSED[order]}; expected it not to` };
}

function countOf(tools: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool, (counts.get(tool) ?? 0) + 1);
  return counts;
}
