import type { Message, ToolResultPart, ToolUsePart } from '../conversation/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import type { Outcome } from '../agent/index.js';

/** Why a run ended in `failed`: a stable code, a message, and the step it happened at. */
export type RunFailure = {
  readonly code: ErrorCode;
  readonly message: string;
  readonly step: number;
};

/**
 * Everything the agent loop knows between two observations. It is plain JSON
 * (a type, not an interface, so the compiler sees it is a `JsonValue`), so
 * every checkpoint is a complete, at-rest picture of the run.
 */
export type AgentContext = {
  /** The run's input, as given to `record`. */
  readonly input: JsonObject;
  /** The system prompt, resolved once when the run started (or overridden by a fork). */
  readonly system: string;
  /** The model id requests go to. */
  readonly model: string;
  /** The conversation so far. Only ever appended to. */
  readonly messages: readonly Message[];
  /** Tool calls of the last model turn that have no result yet, in listed order. */
  readonly pending: readonly ToolUsePart[];
  /** Results of the current batch of tool calls, held until the batch is complete. */
  readonly results: readonly ToolResultPart[];
  /**
   * The awaited tool call a person approved, by its call id and request
   * hash: the driver makes that call only if its request still hashes so.
   * `null` once it returned; absent in runs that never waited for approval.
   */
  readonly approved?: ApprovedCall | null;
  /** How many times the awaited tool call has failed and been retried; absent when it has not. */
  readonly failedAttempts?: number;
  /**
   * The agent's own data the build keeps (see `BuildStateSpec`), with the
   * version of its shape; absent for a build that keeps none, so that such
   * checkpoints are what they always were.
   */
  readonly buildState?: BuildStateRecord | null;
  /** How many observations (steps) the run has taken. */
  readonly step: number;
  /** How many observations of each kind (`model` or a tool name) the run has taken. */
  readonly calls: Readonly<Record<string, number>>;
  /** The outcome, once the run is done. */
  readonly outcome: Outcome | null;
  /** The failure, once the run has failed. */
  readonly error: RunFailure | null;
};

/** A build's state as a checkpoint holds it: the version of its shape, and the value. */
export type BuildStateRecord = {
  readonly version: number;
  readonly value: JsonValue;
};

/** A tool call a person approved: the call's id in the model turn, and its request hash. */
export type ApprovedCall = {
  readonly toolUseId: string;
  readonly requestHash: string;
};

/** What a run starts from: its input and the prompt and model resolved for it. */
export interface AgentMachineInput {
  readonly input: JsonObject;
  readonly system: string;
  readonly model: string;
  /** The first user message, written by the build's `renderInput` hook. */
  readonly firstMessage: string;
  /** The build's state at checkpoint 0, for a build that keeps one. */
  readonly buildState?: BuildStateRecord;
}

/** The context of checkpoint 0. */
export function initialContext(start: AgentMachineInput): AgentContext {
  return {
    input: start.input,
    system: start.system,
    model: start.model,
    messages: [{ role: 'user', content: [{ type: 'text', text: start.firstMessage }] }],
    pending: [],
    results: [],
    step: 0,
    calls: {},
    outcome: null,
    error: null,
    ...(start.buildState === undefined ? {} : { buildState: start.buildState }),
  };
}
