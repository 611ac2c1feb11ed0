import type { AgentBuild, StateObservation } from '../agent/index.js';
import type { JsonValue } from '../json/index.js';
import { assertJsonValue } from '../json/index.js';
import type { AgentContext, BuildStateRecord } from './agent-context.js';
import type { AgentEvent } from './agent-events.js';

/** A context with an observation taken into the build's state, or why the build's own code could not. */
export type TakenIn =
  { readonly ok: true; readonly context: AgentContext } | { readonly ok: false; readonly message: string };

/**
 * Takes one observation into the build's state, before the hooks that read
 * it run: its `update`, a pure function, gives the state after it. A build
 * that keeps no state, or an event that observes nothing (a fork's prompt
 * change), leaves the context as it is. An `update` that throws, or returns
 * what is not JSON, is the build's bug: the caller fails the run with it.
 */
export function takeIntoBuildState(build: AgentBuild, context: AgentContext, event: AgentEvent): TakenIn {
  const spec = build.state;
  const kept = context.buildState;
  if (spec === undefined || kept === undefined || kept === null) return { ok: true, context };
  const observation = observationOf(event, context.step + 1);
  if (observation === undefined) return { ok: true, context };
  try {
    // A copy: the hook must not be able to change the state the checkpoint before it holds.
    const value: unknown = spec.update(structuredClone(kept.value), observation);
    assertJsonValue(value, `the state build ${build.build} keeps`, 'HOOK_FAILED');
    const buildState: BuildStateRecord = { version: kept.version, value };
    return { ok: true, context: { ...context, buildState } };
  } catch (error) {
    return {
      ok: false,
      message: `the build's state update threw: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The build's state a hook sees: the value, or null for a build that keeps none. */
export function buildStateValueOf(context: AgentContext): JsonValue | null {
  return context.buildState?.value ?? null;
}

function observationOf(event: AgentEvent, step: number): StateObservation | undefined {
  switch (event.type) {
    case 'model.responded':
      return { kind: 'model', step, response: event.response };
    case 'tool.returned':
      return { kind: 'tool', step, call: event.call, response: event.response };
    case 'approval.answered':
      return { kind: 'approval', step, call: event.call, answer: event.answer };
    case 'fork.overridden':
      return undefined;
  }
}
