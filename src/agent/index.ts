export type {
  AgentBuild,
  ApprovalCheck,
  AgentDefinition,
  AgentHooks,
  BuildStateSpec,
  FailedToolCall,
  Outcome,
  ParsedOutcome,
  SimulatedCall,
  StateObservation,
  StoredBuildState,
  ToolApprovalCheck,
  PromptEnvironment,
  SystemPrompt,
  ToolResultCheck,
  ToolResultVerdict,
  ToolSpec,
} from './agent-definition.js';
export { CODE_HASH_FORM, codeHashOf } from './code-hash.js';
export { defineAgent } from './define-agent.js';
export type { Observation, ObservationClassifier } from './observation-classifier.js';
