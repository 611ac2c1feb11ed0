import type { ToolUsePart } from '../conversation/index.js';
import type { AgentContext } from './agent-context.js';

/** The model request the machine waits for, with its per-kind index. */
export interface AwaitingModel {
  readonly kind: 'model';
  readonly index: number;
}

/** The tool call the machine waits for, with its per-kind index. */
export interface AwaitingTool {
  readonly kind: string;
  readonly index: number;
  readonly call: ToolUsePart;
}

/** What a resting machine waits for next. */
export type Awaiting = AwaitingModel | AwaitingTool;

/** The minimal view of a snapshot that {@link awaitingOf} reads. */
export interface RestingSnapshot {
  readonly value: unknown;
  readonly context: AgentContext;
}

/**
 * What the machine waits for: the next model request, or the next pending tool
 * call in the order the model listed them. `undefined` once the run is over.
 * The index counts that kind's observations so far, so `model#3` is the fourth
 * model call and `ocr_document#1` the second call to ocr_document.
 */
export function awaitingOf(snapshot: RestingSnapshot): Awaiting | undefined {
  const { context } = snapshot;
  if (snapshot.value === 'awaitingModel') return { kind: 'model', index: context.calls.model ?? 0 };
  if (snapshot.value !== 'awaitingTools') return undefined;
  const call = context.pending[context.results.length];
  if (call === undefined) return undefined;
  return { kind: call.name, index: context.calls[call.name] ?? 0, call };
}
