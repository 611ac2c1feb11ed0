import type { JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import { APPROVAL_KIND } from '../conversation/index.js';
import type { StepView } from '../read/index.js';

/** What the trajectory checks read of a step: where it stands, its kind and index, and what it asked and got. */
export type TrajectoryStep = Pick<StepView, 'step' | 'kind' | 'index' | 'request' | 'response'>;

/**
 * Step kinds that are not tool calls: a model response, and a person's answer
 * to an approval (a call that needs one is a step of its own once approved,
 * and never happens once rejected). No tool may take either name.
 */
export const NOT_CALLS: ReadonlySet<string> = new Set(['model', APPROVAL_KIND]);

/** One tool call of a run: the step that holds its result, and the input the tool was given. */
export interface ToolCall {
  readonly step: number;
  readonly tool: string;
  /** Counts the tool's calls in the run from 0: `ocr_document#1` is its second. */
  readonly index: number;
  readonly input: JsonValue;
}

/** True for a step that is a tool call: its kind is a tool's name, neither `model` nor `approval`. */
export function isToolCallStep(step: Pick<StepView, 'kind'>): boolean {
  return !NOT_CALLS.has(step.kind);
}

/**
 * A run's tool calls in trajectory order. A call a build's `retryTool` retried
 * is one step per attempt (the failed `ocr_document#0`, then `ocr_document#1`),
 * and so one call per attempt here: the tool was asked each time.
 */
export function toolCallsOf(steps: readonly TrajectoryStep[]): ToolCall[] {
  return steps.filter(isToolCallStep).map((step) => ({
    step: step.step,
    tool: step.kind,
    index: step.index,
    input: isJsonObject(step.request) && step.request.input !== undefined ? step.request.input : null,
  }));
}

/** A call as every output names it: `estimate_repair#0`. */
export function callLabel(call: Pick<ToolCall, 'tool' | 'index'>): string {
  return `${call.tool}#${call.index}`;
}

/**
 * The model step that asked for `call`: the last model step before it, when
 * its response lists a `tool_use` of that tool (a retried attempt's too:
 * its model asked once). Undefined where none did.
 */
export function askedBy(steps: readonly TrajectoryStep[], call: ToolCall): TrajectoryStep | undefined {
  const before = steps.filter((step) => step.step < call.step && step.kind === 'model').at(-1);
  if (before === undefined || !isJsonObject(before.response)) return undefined;
  const content = before.response.content;
  const asks =
    isJsonArray(content) &&
    content.some((part) => isJsonObject(part) && part.type === 'tool_use' && part.name === call.tool);
  return asks ? before : undefined;
}

/** `step 6 estimate_repair#0`, and the model step that asked for it where one did. */
export function describeCall(steps: readonly TrajectoryStep[], call: ToolCall): string {
  const asker = askedBy(steps, call);
  const asked = asker === undefined ? '' : ` (asked for by model#${asker.index} at step ${asker.step})`;
  return `step ${call.step} ${callLabel(call)}${asked}`;
}
