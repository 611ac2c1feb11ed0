/**
 * forkpoint: run an LLM agent loop as an XState machine, checkpoint every step
 * into SQLite, and give a recorded run a second life: replay, re-execution or
 * fork, each labelled so that nobody can take one for another.
 */
export {
  codeHashOf,
  defineAgent,
  type AgentBuild,
  type AgentDefinition,
  type AgentHooks,
  type Outcome,
  type ParsedOutcome,
  type PromptEnvironment,
  type SystemPrompt,
  type ToolResultCheck,
  type ToolResultVerdict,
  type ToolSpec,
} from './agent/index.js';
export {
  ReplayDivergence,
  compareRuns,
  diffJson,
  outcomeHistogram,
  type ComparableStep,
  type ComparedRun,
  type ComparedStep,
  type Divergence,
  type DivergenceClass,
  type FieldChange,
  type FirstDivergence,
  type RunComparison,
} from './analysis/index.js';
export {
  CANONICAL_FORM,
  CASSETTE_FORMAT,
  CassetteIndex,
  RequestHasher,
  parseCassette,
  serializeCassette,
  type Cassette,
  type CassetteEntry,
  type CassetteSource,
  formatCallPosition,
  formatCassetteKey,
  type CassetteKey,
  type HashedModelRequest,
  type HashedRequest,
} from './cassette/index.js';
export { restoreCheckpoint, type ForkOverride, type RestoredCheckpoint } from './checkpoint/index.js';
export {
  isMessage,
  isModelResponse,
  isToolResponse,
  textOf,
  toolUsesOf,
  type Message,
  type MessagePart,
  type ModelParams,
  type ModelRequest,
  type ModelResponse,
  type StopReason,
  type TextPart,
  type ThinkingPart,
  type ToolDefinition,
  type ToolRequest,
  type ToolResponse,
  type ToolResultPart,
  type ToolUsePart,
} from './conversation/index.js';
export {
  createEngine,
  type AgentRef,
  type Engine,
  type EngineOptions,
  type ForkOptions,
  type ForkResult,
  type Lineage,
  type LineageNode,
  type RecordOptions,
  type RecordResult,
  type ReexecuteOptions,
  type ReexecutionResult,
  type ReplayOptions,
  type ReplayResult,
  type RunSummary,
  type RunView,
  type StepView,
} from './engine/index.js';
export { ERROR_CODES, ForkpointError, isForkpointError, type ErrorCode } from './errors/index.js';
export { applyMergePatch, canonicalJson, isJsonObject, type JsonArray, type JsonObject, type JsonPrimitive, type JsonValue } from './json/index.js';
export {
  MACHINE_VERSION,
  awaitingOf,
  createAgentMachine,
  type AgentContext,
  type AgentEvent,
  type AgentMachine,
  type AgentStateName,
  type RunFailure,
} from './machine/index.js';
export { buildOf, defineScenario, loadScenario, type InputFlag, type Scenario, type WorldOptions } from './scenario/index.js';
export {
  DEFAULT_DB_PATH,
  sqliteStore,
  type ParentLink,
  type Provenance,
  type RunErrorRecord,
  type RunMode,
  type RunRecord,
  type RunStatus,
  type SqliteStoreOptions,
  type Store,
} from './store/index.js';
export {
  liveTransport,
  overrideTransport,
  replayingTransport,
  type Answered,
  type FidelityReplayOptions,
  type ModelCall,
  type ReplayingTransport,
  type StrictReplayOptions,
  type ToolCall,
  type Transport,
} from './transports/index.js';
export type { ModelProvider, ToolHandler, World } from './world/index.js';
