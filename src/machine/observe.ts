import type { AgentBuild, Outcome, ToolResultCheck } from '../agent/index.js';
import type { JsonValue } from '../json/index.js';
import { assertJsonValue } from '../json/index.js';
import type {
  ApprovalAnswer,
  Message,
  ModelResponse,
  ToolResponse,
  ToolResultPart,
  ToolUsePart,
} from '../conversation/index.js';
import { APPROVAL_KIND, rejectionContentOf, textOf, toolUsesOf } from '../conversation/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { AgentContext } from './agent-context.js';
import type { AgentStateName } from './machine-version.js';
import { needsApproval } from './approval-rule.js';
import { buildStateValueOf } from './build-state.js';

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
  if (toolUses.length > 0) return towardsPending(build, { ...advanced, pending: toolUses, results: [] });
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
    const state = buildStateValueOf(context);
    const retry = runHook(() => ({ ok: true as const, value: retryTool({ call, response, step, attempt, state }) }));
    if (!retry.ok) return fail({ ...context, step, calls }, retry.code, retry.message);
    // The failed attempt is a step of its own, but not a result: the call stays awaited.
    if (retry.value) return withinCap(build, { ...context, step, calls, failedAttempts: attempt }, 'awaitingTools');
  }
  // Reset to 0 (and null) rather than deleted: checkpoint deltas record changed fields, not removed ones.
  const settled: AgentContext = {
    ...context,
    ...(context.failedAttempts === undefined ? {} : { failedAttempts: 0 }),
    ...(context.approved === undefined ? {} : { approved: null }),
  };
  const rendered =
    build.renderToolResult === undefined
      ? { ok: true as const, value: response.output }
      : renderResult(build.renderToolResult, { call, response, step, state: buildStateValueOf(context) });
  if (!rendered.ok) return fail({ ...settled, step, calls }, rendered.code, rendered.message);
  const part: ToolResultPart = {
    type: 'tool_result',
    toolUseId: call.id,
    content: rendered.value,
    isError: response.isError,
  };
  const advanced: AgentContext = { ...settled, step, calls, results: [...context.results, part] };
  if (build.guardToolResult !== undefined) {
    const guard = build.guardToolResult;
    const state = buildStateValueOf(context);
    const verdict = runHook(() => ({ ok: true as const, value: guard({ call, response, step, state }) }));
    if (!verdict.ok) return fail(advanced, verdict.code, verdict.message);
    if (verdict.value.action === 'finish')
      return { context: { ...advanced, outcome: verdict.value.outcome }, next: 'done' };
    if (verdict.value.action === 'fail') return fail(advanced, 'VALIDATION_FAILED', verdict.value.message);
  }
  return joinConversation(build, advanced, part);
}

/**
 * Applies a person's answer to the awaited call: an approval lets the driver
 * make that call next (and only that call, by its request hash); a rejection
 * stands as the call's result, an error the model sees, and the call is never
 * made. Either way the answer is a step of its own.
 */
export function observeApproval(
  build: AgentBuild,
  context: AgentContext,
  call: ToolUsePart,
  answer: ApprovalAnswer,
): Observed {
  const advanced: AgentContext = { ...context, step: context.step + 1, calls: countCall(context.calls, APPROVAL_KIND) };
  if (answer.approved)
    return withinCap(
      build,
      { ...advanced, approved: { toolUseId: call.id, requestHash: answer.requestHash } },
      'awaitingTools',
    );
  const part: ToolResultPart = {
    type: 'tool_result',
    toolUseId: call.id,
    content: rejectionContentOf(answer),
    isError: true,
  };
  return joinConversation(build, { ...advanced, results: [...context.results, part] }, part);
}

// The batch's latest result, `part`, joins the conversation: as its own turn at once, or with the rest of
// its batch as one user turn once every call has a result.
function joinConversation(build: AgentBuild, advanced: AgentContext, part: ToolResultPart): Observed {
  const { results } = advanced;
  const turnEach = build.toolResultTurns === 'each';
  const withTurn: AgentContext = turnEach
    ? { ...advanced, messages: [...advanced.messages, { role: 'user', content: [part] }] }
    : advanced;
  if (results.length < advanced.pending.length) return towardsPending(build, withTurn);
  const messages = turnEach ? withTurn.messages : [...advanced.messages, { role: 'user' as const, content: results }];
  return withinCap(build, { ...withTurn, messages, pending: [], results: [] }, 'awaitingModel');
}

// The next pending call is made, or first waits for a person's approval when a rule asks for one.
function towardsPending(build: AgentBuild, context: AgentContext): Observed {
  const call = context.pending[context.results.length];
  if (call === undefined) return withinCap(build, context, 'awaitingTools');
  const rule = runHook(() => ({ ok: true as const, value: needsApproval(build, context, call, context.step + 1) }));
  if (!rule.ok) return fail(context, rule.code, rule.message);
  return withinCap(build, context, rule.value ? 'awaitingApproval' : 'awaitingTools');
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

/** An observation the build's own code could not take in: the run fails at the step it would have been. */
export function failObservation(context: AgentContext, code: ErrorCode, message: string): Observed {
  return fail({ ...context, step: context.step + 1 }, code, message);
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
