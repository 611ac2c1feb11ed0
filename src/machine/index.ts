export {
  initialContext,
  type AgentContext,
  type AgentMachineInput,
  type ApprovedCall,
  type BuildStateRecord,
  type RunFailure,
} from './agent-context.js';
export type {
  AgentEvent,
  ApprovalAnsweredEvent,
  ForkOverriddenEvent,
  ModelRespondedEvent,
  ToolReturnedEvent,
} from './agent-events.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { createAgentMachine, type AgentMachine } from './agent-machine.js';
/** @internal Over the machine's xstate types, as createAgentMachine. */
export { initialSnapshot, nextSnapshot } from './machine-transitions.js';
export {
  awaitingOf,
  type Awaiting,
  type AwaitingApproval,
  type AwaitingModel,
  type AwaitingTool,
  type RestingSnapshot,
} from './awaiting.js';
export { MACHINE_VERSION, WRAPPED_LOOP_VERSION, type AgentStateName } from './machine-version.js';
export { observeApproval, observeModelResponse, observeToolResult, type Observed } from './observe.js';
export { buildStateValueOf, takeIntoBuildState, type TakenIn } from './build-state.js';
