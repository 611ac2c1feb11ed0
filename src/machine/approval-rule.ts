import type { AgentBuild } from '../agent/index.js';
import type { ToolUsePart } from '../conversation/index.js';
import type { AgentContext } from './agent-context.js';
import { buildStateValueOf } from './build-state.js';

/**
 * Whether `call`, about to be made as step `step`, needs a person's approval
 * first: its tool spec's rule or the build's says so, and no approval of this
 * very call is held. A rule that throws is the build's bug: it throws on, for
 * the machine to fail the run with.
 */
export function needsApproval(build: AgentBuild, context: AgentContext, call: ToolUsePart, step: number): boolean {
  if (context.approved?.toolUseId === call.id) return false;
  const spec = build.tools.find((tool) => tool.name === call.name);
  // Handed copies: a rule is the agent's own code, and the input is the run's state.
  const state = buildStateValueOf(context);
  const index = context.calls[call.name] ?? 0;
  if (spec?.requiresApproval?.({ input: structuredClone(call.input), step, index, state: structuredClone(state) }))
    return true;
  return build.requiresApproval?.({ call: structuredClone(call), step, state: structuredClone(state) }) === true;
}
