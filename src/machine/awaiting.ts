import type { ToolUsePart } from '../conversation/index.js';
import { APPROVAL_KIND } from '../conversation/index.js';
import type { AgentContext } from './agent-context.js';

/** The model request the machine waits for, with its per-kind index. */
export interface AwaitingModel {
  readonly type: 'model';
  readonly kind: 'model';
  readonly index: number;
}

/** The tool call the machine waits for, with its per-kind index. */
export interface AwaitingTool {
  readonly type: 'tool';
  readonly kind: string;
  readonly index: number;
  readonly call: ToolUsePart;
}

/**
 * A person's answer the machine waits for: may `call` be made? Its index
 * counts the run's approvals, so `approval#1` is the second question asked.
 */
export interface AwaitingApproval {
  readonly type: 'approval';
  readonly kind: typeof APPROVAL_KIND;
  readonly index: number;
  /** The call the answer is about, as the model asked for it. */
  readonly call: ToolUsePart;
}

/** What a resting machine waits for next. */
export type Awaiting = AwaitingModel | AwaitingTool | AwaitingApproval;

/** The minimal view of a snapshot that {@link awaitingOf} reads. */
export interface RestingSnapshot {
  readonly value: unknown;
  readonly context: AgentContext;
}

/**
 * What the machine waits for: the next model request, the next pending tool
 * call in the order the model listed them, or a person's approval of that
 * call. `undefined` once the run is over. The index counts that kind's
 * observations so far, so `model#3` is the fourth model call and
 * `ocr_document#1` the second call to ocr_document.
 */
export function awaitingOf(snapshot: RestingSnapshot): Awaiting | undefined {
  const { context } = snapshot;
  if (snapshot.value === 'awaitingModel') return { type: 'model', kind: 'model', index: context.calls.model ?? 0 };
  if (snapshot.value !== 'awaitingTools' && snapshot.value !== 'awaitingApproval') return undefined;
  const call = context.pending[context.results.length];
  if (call === undefined) return undefined;
  if (snapshot.value === 'awaitingApproval')
    return { type: 'approval', kind: APPROVAL_KIND, index: context.calls[APPROVAL_KIND] ?? 0, call };
  return { type: 'tool', kind: call.name, index: context.calls[call.name] ?? 0, call };
}
