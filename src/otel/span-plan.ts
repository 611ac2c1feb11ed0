import type { RunView } from '../engine/index.js';
import { FORKPOINT, GEN_AI, GEN_AI_OPERATION } from './semconv.js';
import { spanIdOf, traceIdOf } from './span-ids.js';
import { stepAttributes } from './step-attributes.js';
import type { PayloadState, StepFacts } from './step-facts.js';
import { createToolCallQueue } from './step-facts.js';
import type { SpanAttributes } from './usage-attributes.js';

/** A link from one span to a span of another run's export. */
export interface LinkPlan {
  readonly traceId: string;
  readonly spanId: string;
  /** `fork-of`, `continued-from`, `replay-of` or `reexecution-of`. */
  readonly type: string;
  readonly runId: string;
  readonly step: number;
}

/** One span to emit, as plain data: the emitter turns it into the SDK's span. */
export interface SpanPlan {
  readonly name: string;
  readonly kind: 'internal' | 'client';
  readonly traceId: string;
  readonly spanId: string;
  /** Null for the run's agent span, which has no parent. */
  readonly parentSpanId: string | null;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: SpanAttributes;
  readonly links: readonly LinkPlan[];
  /** Set on a failed span: forkpoint's error code and message. */
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** What the plan needs to know besides the run. */
export interface PlanOptions {
  /** `gen_ai.provider.name` where neither the response nor the model id tells. */
  readonly providerFallback: string;
}

/** What the plan reads of a run: everything a run view holds but its steps and cost. */
export type RunFacts = Omit<RunView, 'steps' | 'cost'>;

const nanosOf = (iso: string): bigint => BigInt(new Date(iso).getTime()) * 1_000_000n;

/**
 * The spans of one run: an `invoke_agent` span for the run, and a child per
 * step (`chat {model}`, `execute_tool {name}`, or `approval {tool}` for a
 * person's answer). forkpoint's step rows carry
 * no times, so the steps are laid in order in equal slices of the run's
 * interval (`forkpoint.timing = "ordered"`), never given durations they did
 * not have.
 */
export function planRunSpans(
  run: RunFacts,
  steps: readonly StepFacts[],
  payloads: PayloadState,
  options: PlanOptions,
): SpanPlan[] {
  const traceId = traceIdOf(run.runId);
  const agentSpanId = spanIdOf(run.runId, 0);
  const start = nanosOf(run.createdAt);
  const end = run.finishedAt === null ? start : nanosOf(run.finishedAt);
  const slice = steps.length === 0 ? 0n : (end - start) / BigInt(steps.length);
  const common: SpanAttributes = {
    [FORKPOINT.runId]: run.runId,
    [FORKPOINT.mode]: run.mode,
    [FORKPOINT.build]: run.agent.build,
    [FORKPOINT.codeHash]: run.agent.codeHash,
    [GEN_AI.conversationId]: run.runId,
    ...(run.parent === null
      ? {}
      : { [FORKPOINT.parentRunId]: run.parent.runId, [FORKPOINT.forkAtStep]: run.parent.atStep }),
    ...(run.sourceRunId === null ? {} : { [FORKPOINT.sourceRunId]: run.sourceRunId }),
  };
  const failed = run.status !== 'completed' && run.status !== 'running' && run.error !== null ? run.error : null;
  const agent: SpanPlan = {
    name: `${GEN_AI_OPERATION.invokeAgent} ${run.agent.name}`,
    kind: 'internal',
    traceId,
    spanId: agentSpanId,
    parentSpanId: null,
    startNs: start,
    endNs: end,
    attributes: {
      ...common,
      [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent,
      [GEN_AI.agentName]: run.agent.name,
      [GEN_AI.agentVersion]: run.agent.build,
      [FORKPOINT.status]: run.status,
      [FORKPOINT.timing]: 'ordered',
      [FORKPOINT.payloads]: payloads,
      ...(run.scenario === null ? {} : { [FORKPOINT.scenario]: run.scenario }),
      // A run stopped at rest for a person's answer: which call it waits on, by tool and request hash, no input.
      ...(run.pendingApproval === null
        ? {}
        : {
            [FORKPOINT.pendingApprovalTool]: run.pendingApproval.tool,
            [FORKPOINT.pendingApprovalRequestHash]: run.pendingApproval.requestHash,
          }),
      ...(run.loop === undefined ? {} : { [FORKPOINT.loop]: run.loop }),
    },
    links: sourceLinks(run),
    error: failed === null ? null : { code: failed.code, message: failed.message },
  };
  const toolCalls = createToolCallQueue();
  const stepSpans = steps.map((facts, position): SpanPlan => {
    const described = stepAttributes(facts, payloads, toolCalls, options.providerFallback);
    return {
      name: described.name,
      kind: described.client ? 'client' : 'internal',
      traceId,
      spanId: spanIdOf(run.runId, facts.step),
      parentSpanId: agentSpanId,
      startNs: start + slice * BigInt(position),
      endNs: position === steps.length - 1 ? end : start + slice * BigInt(position + 1),
      attributes: { ...common, ...described.attributes },
      links: [],
      error: failed?.step === facts.step ? { code: failed.code, message: failed.message } : null,
    };
  });
  return [agent, ...stepSpans];
}

// A fork links to its parent's agent span and to the span of the step it continued from (the parent's step
// N-1; none at step 1); a replay or re-execution links to its source run's agent span.
function sourceLinks(run: RunFacts): LinkPlan[] {
  const links: LinkPlan[] = [];
  const to = (runId: string, step: number, type: string): LinkPlan => ({
    traceId: traceIdOf(runId),
    spanId: spanIdOf(runId, step),
    type,
    runId,
    step,
  });
  if (run.parent !== null) {
    links.push(to(run.parent.runId, 0, 'fork-of'));
    if (run.parent.atStep > 1) links.push(to(run.parent.runId, run.parent.atStep - 1, 'continued-from'));
  }
  if (run.sourceRunId !== null)
    links.push(to(run.sourceRunId, 0, run.mode === 'reexecution' ? 'reexecution-of' : 'replay-of'));
  return links;
}
