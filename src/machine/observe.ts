import type { AgentBuild, Outcome, ToolResultCheck } from '../agent/index.js';
import type { JsonValue } from '../json/index.js';
import { assertJsonValue } from '../json/index.js';
import type { Message, ModelResponse, ToolResponse, ToolResultPart, ToolUsePart } from '../conversation/index.js';
import { textOf, toolUsesOf } from '../conversation/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { AgentContext } from './agent-context.js';
import type { AgentStateName } from './machine-version.js';

/** The context after one observation, and the state the machine moves to. */
export interface Observed {
  readonly context: AgentContext;
  readonly next: AgentStateName;
}

/**
 * Applies a model response: the assistant turn is appended, and either its
 * tool calls become pending, or a paused turn (`pause_turn`) is continued by
 * the next model call, or a refusal ends the run (`MODEL_REFUSED`), or its
 * text is parsed and validated as the run's outcome.
 */
export function observeModelResponse(build: AgentBuild, context: AgentContext, response: ModelResponse): Observed {
  const step = context.step + 1;
  const assistant: Message = { role: 'assistant', content: response.content };
  const advanced: AgentContext = {
    ...context,
    step,
    calls: countCall(context.calls, 'model'),
    messages: [...context.messages, assistant],
  };
  const toolUses = toolUsesOf(assistant);
  if (toolUses.length > 0) return withinCap(build, { ...advanced, pending: toolUses, results: [] }, 'awaitingTools');
  // The provider paused a long turn: sending the conversation back as it is lets the model go on.
  if (response.stopReason === 'pause_turn') return withinCap(build, advanced, 'awaitingModel');
  if (response.stopReason === 'refusal' || response.stopReason === 'content_filter') {
    const said = textOf(response.content);
    return fail(
      advanced,
      'MODEL_REFUSED',
      `the model declined to answer (${response.providerStopReason ?? response.stopReason})${said === '' ? '' : `: ${said.slice(0, 200)}`}`,
    );
  }

  const judged = runHook(() => judgeOutcome(build, textOf(response.content)));
  if (judged.ok) return { context: { ...advanced, outcome: judged.value }, next: 'done' };
  return fail(advanced, judged.code, judged.message);
}

/**
 * Applies a tool result: it joins the current batch, the build's guard may end
 * the run on it, and it joins the conversation: as its own turn at once, or
 * with the rest of its batch as one user turn once every call has a result.
 */
export function observeToolResult(
  build: AgentBuild,
  context: AgentContext,
  call: ToolUsePart,
  response: ToolResponse,
): Observed {
  const step = context.step + 1;
  const calls = countCall(context.calls, call.name);
  if (response.isError && build.retryTool !== undefined) {
    const retryTool = build.retryTool;
    const attempt = (context.failedAttempts ?? 0) + 1;
    const retry = runHook(() => ({ ok: true as const, value: retryTool({ call, response, step, attempt }) }));
    if (!retry.ok) return fail({ ...context, step, calls }, retry.code, retry.message);
    // The failed attempt is a step of its own, but not a result: the call stays awaited.
    if (retry.value) return withinCap(build, { ...context, step, calls, failedAttempts: attempt }, 'awaitingTools');
  }
  // Reset to 0 rather than deleted: checkpoint deltas record changed fields, not removed ones.
  const settled: AgentContext = context.failedAttempts === undefined ? context : { ...context, failedAttempts: 0 };
  const rendered =
    build.renderToolResult === undefined
      ? { ok: true as const, value: response.output }
      : renderResult(build.renderToolResult, { call, response, step });
  if (!rendered.ok) return fail({ ...settled, step, calls }, rendered.code, rendered.message);
  const part: ToolResultPart = {
    type: 'tool_result',
    toolUseId: call.id,
    content: rendered.value,
    isError: response.isError,
  };
  const results = [...context.results, part];
  const advanced: AgentContext = { ...settled, step, calls, results };
  if (build.guardToolResult !== undefined) {
    const guard = build.guardToolResult;
    const verdict = runHook(() => ({ ok: true as const, value: guard({ call, response, step }) }));
    if (!verdict.ok) return fail(advanced, verdict.code, verdict.message);
    if (verdict.value.action === 'finish')
      return { context: { ...advanced, outcome: verdict.value.outcome }, next: 'done' };
    if (verdict.value.action === 'fail') return fail(advanced, 'VALIDATION_FAILED', verdict.value.message);
  }
  // One turn per result appends it now; one turn per batch waits for the batch's last result.
  const turnEach = build.toolResultTurns === 'each';
  const withTurn: AgentContext = turnEach
    ? { ...advanced, messages: [...context.messages, { role: 'user', content: [part] }] }
    : advanced;
  if (results.length < context.pending.length) return withinCap(build, withTurn, 'awaitingTools');
  const messages = turnEach ? withTurn.messages : [...context.messages, { role: 'user' as const, content: results }];
  return withinCap(build, { ...withTurn, messages, pending: [], results: [] }, 'awaitingModel');
}

function renderResult(
  render: NonNullable<AgentBuild['renderToolResult']>,
  check: ToolResultCheck,
): HookResult<JsonValue> {
  return runHook(() => {
    const value = render(check);
    // Checked here, because the result becomes part of every later checkpoint and request.
    assertJsonValue(value, 'the rendered tool result', 'HOOK_FAILED');
    return { ok: true as const, value };
  });
}

/** True when `call` is the tool call the machine waits for next. */
export function isAwaitedCall(context: AgentContext, call: ToolUsePart): boolean {
  return context.pending[context.results.length]?.id === call.id;
}

function countCall(calls: Readonly<Record<string, number>>, kind: string): Readonly<Record<string, number>> {
  return { ...calls, [kind]: (calls[kind] ?? 0) + 1 };
}

function withinCap(build: AgentBuild, context: AgentContext, next: AgentStateName): Observed {
  if (context.step < build.stepCap) return { context, next };
  return fail(
    context,
    'STEP_CAP_REACHED',
    `the run took ${context.step} steps, its build's cap, without an outcome; raise stepCap or look for a loop`,
  );
}

function fail(context: AgentContext, code: ErrorCode, message: string): Observed {
  return { context: { ...context, pending: [], error: { code, message, step: context.step } }, next: 'failed' };
}

type HookResult<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string };

function judgeOutcome(build: AgentBuild, text: string): HookResult<Outcome> {
  const parsed = build.parseOutcome(text);
  if (!parsed.ok)
    return { ok: false, code: 'VALIDATION_FAILED', message: `the outcome could not be parsed: ${parsed.problem}` };
  const problems = build.validateOutcome?.(parsed.outcome) ?? [];
  if (problems.length > 0) return { ok: false, code: 'VALIDATION_FAILED', message: problems.join('; ') };
  return { ok: true, value: parsed.outcome };
}

/** A hook that throws is a bug in the agent's own code: the run fails with it, the machine does not. */
function runHook<T>(hook: () => HookResult<T>): HookResult<T> {
  try {
    return hook();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, code: 'HOOK_FAILED', message: `a harness hook threw: ${reason}` };
  }
}
