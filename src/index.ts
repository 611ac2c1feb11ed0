/**
 * forkpoint: run an LLM agent loop as an XState machine, checkpoint every step
 * into SQLite, and give a recorded run a second life: replay, re-execution or
 * fork, each labelled so that nobody can take one for another.
 *
 * The root holds what a user who brings their own agent and world needs: the
 * engine and its stores, the declarations of an agent, a world and a
 * scenario, the error, and the types of every option and result. The rest is
 * on subpaths: `forkpoint/sqlite` (the SQLite store's own options),
 * `forkpoint/analysis` (comparing runs, divergence reports, the prompt lint)
 * and `forkpoint/testing` (vitest helpers, conformance suites).
 *
 * @example
 * ```ts
 * import { createEngine, defineAgent, sqliteStore } from 'forkpoint';
 * const engine = createEngine({ store: sqliteStore({ path: 'checkpoints/forkpoint.db' }) });
 * const run = await engine.record({ agent, world, input: { ticket: 'T-1' } });
 * ```
 */

// The engine, and the stores it runs over.
export { createEngine, type Engine, type EngineOptions } from './engine/index.js';
export {
  memoryStore,
  openStore,
  sqliteStore,
  type MemoryStoreOptions,
  type OpenStoreOptions,
  type SqliteStoreOptions,
} from './store/index.js';

// Declaring an agent: a build, its tools and its harness hooks.
export {
  defineAgent,
  type AgentBuild,
  type AgentDefinition,
  type ApprovalCheck,
  type AgentHooks,
  type BuildStateSpec,
  type FailedToolCall,
  type Observation,
  type ObservationClassifier,
  type Outcome,
  type ParsedOutcome,
  type PromptEnvironment,
  type SimulatedCall,
  type StateObservation,
  type StoredBuildState,
  type SystemPrompt,
  type ToolApprovalCheck,
  type ToolResultCheck,
  type ToolResultVerdict,
  type ToolSpec,
} from './agent/index.js';

// What an agent reads and answers: the provider-neutral conversation.
export {
  textOf,
  toolUsesOf,
  type ApprovalAnswer,
  type ApprovalQuestion,
  type Message,
  type MessagePart,
  type ModelParams,
  type ModelRequest,
  type ModelResponse,
  type ProviderPart,
  type RedactedThinkingPart,
  type StopReason,
  type TextPart,
  type ThinkingPart,
  type ToolDefinition,
  type ToolRequest,
  type ToolResponse,
  type ToolResultPart,
  type ToolUsePart,
  type Usage,
} from './conversation/index.js';
export { isJsonObject, type JsonArray, type JsonObject, type JsonPrimitive, type JsonValue } from './json/index.js';

// What answers a live run: a world, and one model provider over several (by model id).
export type { ModelProvider, ToolHandler, World, WorldFactory } from './world/index.js';
export { routeModels } from './providers/index.js';

// A packaged agent with its world, and its hand-written synthetic cases.
export {
  defineScenario,
  loadScenario,
  loadSyntheticCases,
  type InputFlag,
  type Scenario,
  type ScenarioStory,
  type StoryApproval,
  type StoryIncident,
  type StoryText,
  type Summarize,
  type SyntheticCase,
  type SyntheticRunResult,
  type SyntheticSupport,
  type SyntheticVerdict,
  type WorldOptions,
} from './scenario/index.js';

// A loop forkpoint does not drive, wrapped instead: its SDK client and tools go through a session, which keys
// every call as a driven run's and records, replays strictly, or forks it by prefix replay.
export {
  createSession,
  replayDivergenceIn,
  RecordedToolError,
  type AiSdkMiddleware,
  type AnthropicMiddleware,
  type FetchFunction,
  type ForkPrefixSession,
  type RecordSession,
  type ReplaySession,
  type Session,
  type SessionEnding,
  type SessionLoop,
  type SessionMode,
  type SessionOptions,
  type SessionResult,
  type WrappedForkResult,
  type WrappedRecordResult,
  type WrappedReplayResult,
  type WrapToolOptions,
} from './wrap/index.js';

// Workflows over an engine, each a function of the engine and its options: a fix verified against the
// build that failed, a folder of cassettes replayed strictly (CI), hand-written cases evaluated.
export {
  verifyRun,
  runSuite,
  evaluateSynthetic,
  type EvaluateOptions,
  type SyntheticCaseResult,
  type SyntheticDifference,
  type SyntheticEvaluation,
} from './workflows/index.js';

// The error, and the divergence a replay returns.
export {
  ERROR_CODES,
  ForkpointError,
  isForkpointError,
  type ErrorCode,
  type ErrorDetails,
  type ForkpointErrorOptions,
  type Remedy,
} from './errors/index.js';
export { ReplayDivergence } from './analysis/index.js';
export type { Divergence, DivergenceClass, FieldChange } from './vocabulary/index.js';

// Cassettes: read and written through the engine (`engine.readCassette`, `engine.exportCassette`), which
// seal, sign and check a full tier; a folder of them is listed here.
export { findCassetteFiles, type Cassette, type CassetteEntry, type CassetteSource } from './cassette/index.js';

// What runs cost: forkpoint's dated list prices, and tables of one's own (`createEngine({ prices })`).
export {
  SHIPPED_PRICES,
  definePriceTable,
  mergePriceTables,
  parsePriceTable,
  type CostPart,
  type ModelPrice,
  type PriceLookup,
  type PriceSource,
  type PriceTable,
  type RunCost,
  type RunCostDetail,
  type StepCost,
  type TokenCounts,
  type UsageTotal,
} from './pricing/index.js';

// Options of the modes, checked at run time as the CLI's are.
export { parseForkOverride, type ForkEdit, type ForkOverride, type ForkOverrideKind } from './fork/index.js';
export type { SideEffectChoice, SideEffectOption, SideEffectPolicy } from './firewall/index.js';
export {
  parseCapturePolicy,
  type CaptureDecision,
  type CapturePolicy,
  type CaptureReport,
  type CollectedRun,
  type GcReport,
} from './retention/index.js';
export type {
  ApproveOptions,
  ForkOptions,
  RecordOptions,
  ReexecuteOptions,
  ReplayOptions,
  ResumeOptions,
} from './modes/index.js';
export type { SuiteInput, SuiteOptions, SuiteSource, VerifyOptions } from './workflows/index.js';

// Results: a type per mode, so that one cannot be taken for another.
export type {
  ApproveResult,
  ForkResult,
  RecordResult,
  ReexecutionResult,
  ReplayResult,
  ResumeResult,
} from './modes/index.js';
export type { SuiteCase, SuiteResult, VerificationArm, VerifyResult } from './workflows/index.js';
export type {
  AgentRef,
  ExportOptions,
  ExportedCassette,
  Lineage,
  LineageNode,
  PendingApproval,
  RunPage,
  RunPageQuery,
  RunRetention,
  RunSummary,
  RunView,
  StepView,
  TierSizes,
} from './read/index.js';
export type { RestoredCheckpoint } from './checkpoint/index.js';
export type { AgentContext, AgentStateName, RunFailure } from './machine/index.js';
export type { CheckpointMigration, Provenance, RunMode, RunStatus, Tier } from './vocabulary/index.js';

// The store port, for a store of one's own (its conformance suite is in `forkpoint/testing`).
export type {
  CheckpointRow,
  FullTierPurge,
  MessageLog,
  MessageRange,
  NewRunRecord,
  ParentLink,
  PurgeCounts,
  PurgeReason,
  RestoreRequest,
  RestoreRows,
  ResumeClaim,
  RetentionPeriods,
  RunErrorRecord,
  RunFinish,
  RunOwner,
  RunPurge,
  RunQuery,
  RunRecord,
  RunResume,
  StepRecord,
  Store,
  StoreReader,
  StoreSettings,
} from './store/index.js';
