import type { ObservationClassifier } from './observation-classifier.js';
import type { ApprovalAnswer, ModelResponse, ToolResponse, ToolUsePart } from '../conversation/index.js';
import type { ModelParams, ToolDefinition } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';

/** What a tool's simulator is given: the call's input and where the call stands in the run. */
export interface SimulatedCall {
  readonly input: JsonObject;
  /** The step the call is. */
  readonly step: number;
  /** The tool's call number in the run, from 0. */
  readonly index: number;
}

/** A tool the agent may call, and whether calling it changes the world. */
export interface ToolSpec extends ToolDefinition {
  /**
   * True when calling the tool only reads the world. forkpoint re-asks
   * read-only tools freely (drift probes, forks, re-executions); a run past
   * its recording calls the others only when its side-effect policy says so
   * by name (see `SideEffectPolicy`), and a drift probe never does.
   */
  readonly readOnly: boolean;
  /**
   * Answers in place of the real tool when a run's side-effect policy is
   * `simulate`: a pure function of the call, the agent's own code, part of
   * the code hash.
   */
  readonly simulate?: (call: SimulatedCall) => JsonValue;
  /**
   * Decides whether a call to this tool needs a person's approval before it
   * is made: the run stops at rest (`awaitingApproval`) until someone answers
   * with `forkpoint approve` or `engine.approve`. A pure function of the
   * call (and the build's state), part of the code hash. Without it no call
   * to the tool waits.
   */
  readonly requiresApproval?: (call: ToolApprovalCheck) => boolean;
}

/** What a tool spec's approval rule sees: the call, where it stands, and the build's state. */
export interface ToolApprovalCheck extends SimulatedCall {
  /** The build's own state before the call (see `BuildStateSpec`); null for a build that keeps none. */
  readonly state: JsonValue | null;
}

/** What a system prompt may depend on. Both are injected, never read globally. */
export interface PromptEnvironment {
  readonly now: Date;
  readonly random: () => number;
}

/** A system prompt, fixed or computed once when a run starts. */
export type SystemPrompt = string | ((environment: PromptEnvironment) => string);

/** The outcome a run's final model turn parses to. */
export type Outcome = JsonObject;

/** The result of the build's outcome parser. */
export type ParsedOutcome =
  { readonly ok: true; readonly outcome: Outcome } | { readonly ok: false; readonly problem: string };

/** What the harness decides when a tool result arrives. */
export type ToolResultVerdict =
  | { readonly action: 'continue' }
  | { readonly action: 'finish'; readonly outcome: Outcome }
  | { readonly action: 'fail'; readonly message: string };

/** The facts a tool-result guard sees. */
export interface ToolResultCheck {
  readonly call: ToolUsePart;
  readonly response: ToolResponse;
  readonly step: number;
  /** The build's own state with this result taken in (see `BuildStateSpec`); null for a build that keeps none. */
  readonly state: JsonValue | null;
}

/** The facts a build's approval rule sees: the call the model asked for, the step it would be, and the build's state. */
export interface ApprovalCheck {
  readonly call: ToolUsePart;
  readonly step: number;
  readonly state: JsonValue | null;
}

/** One observation as a build's state takes it in: what came back at a step, and for a tool what was asked. */
export type StateObservation =
  | { readonly kind: 'model'; readonly step: number; readonly response: ModelResponse }
  | { readonly kind: 'tool'; readonly step: number; readonly call: ToolUsePart; readonly response: ToolResponse }
  | { readonly kind: 'approval'; readonly step: number; readonly call: ToolUsePart; readonly answer: ApprovalAnswer };

/** A checkpoint's build state as a migration gets it: the version it was kept under, and the state itself. */
export interface StoredBuildState {
  /** The version of the build that wrote it; null when that build kept no state. */
  readonly version: number | null;
  /** The state; null when that build kept none. */
  readonly state: JsonValue | null;
}

/**
 * The agent's own data a build keeps between observations, beside the
 * conversation (the lowest OCR confidence seen so far, the payments made),
 * which its hooks read. It lives in every checkpoint with its `version`, so
 * that a fork or a resume under another build can tell whether that build
 * reads it the same way: a build whose state has another version continues
 * a checkpoint only through its `migrate`, and is refused otherwise
 * (`CHECKPOINT_INCOMPATIBLE`). Every function here is the agent's own code:
 * pure, and part of the code hash.
 */
export interface BuildStateSpec {
  /** The version of the state's shape. Bump it when a field is renamed, removed or means something else. */
  readonly version: number;
  /** The state at checkpoint 0, from the run's input. */
  readonly initial: (input: JsonObject) => JsonValue;
  /** The state after one observation. Runs before the hooks that read it (guards, approval rules). */
  readonly update: (state: JsonValue, observation: StateObservation) => JsonValue;
  /**
   * Makes a checkpoint's state of another version this version's: a pure
   * function from the old state to the new. Without it, such a checkpoint
   * is refused. What it returns must pass `validate`.
   */
  readonly migrate?: (stored: StoredBuildState) => JsonValue;
  /** What is wrong with a state of this version; empty when nothing is. Checked on every migrated state. */
  readonly validate?: (state: JsonValue) => readonly string[];
}

/** The facts a retry policy sees: a failed tool call and how many times it has failed so far (from 1). */
export interface FailedToolCall extends ToolResultCheck {
  readonly attempt: number;
}

/**
 * The harness hooks: the agent's own code, run by the machine on every
 * observation. They must be pure functions of their arguments.
 */
export interface AgentHooks {
  /** Writes the first user message from the run's input. */
  readonly renderInput: (input: JsonObject) => string;
  /** Inspects each tool result as it arrives; may end or fail the run right there. */
  readonly guardToolResult?: (check: ToolResultCheck) => ToolResultVerdict;
  /**
   * Decides whether a tool call that answered with an error is issued again
   * (a timeout, say). A retried attempt is a step of its own, and the model
   * never sees it. Without this hook no call is retried.
   */
  readonly retryTool?: (failed: FailedToolCall) => boolean;
  /**
   * Decides, for any tool, whether a call needs a person's approval before it
   * is made, as a tool spec's `requiresApproval` does for its own calls; a
   * call waits when either says so.
   */
  readonly requiresApproval?: (check: ApprovalCheck) => boolean;
  /** What the model sees of a tool's answer: the content of its `tool_result` part. Defaults to the output. */
  readonly renderToolResult?: (check: ToolResultCheck) => JsonValue;
  /**
   * How tool results join the conversation: `batch` (the default) appends one
   * user turn holding every result of a model turn, in the order the model
   * asked, as Anthropic's API expects; `each` appends every result as its own
   * turn as it arrives, as OpenAI-style APIs do.
   */
  readonly toolResultTurns?: 'batch' | 'each';
  /** Reads the outcome out of the model's final text. */
  readonly parseOutcome: (text: string) => ParsedOutcome;
  /** Lists what is wrong with a parsed outcome; empty when it is acceptable. */
  readonly validateOutcome?: (outcome: Outcome) => readonly string[];
  /**
   * Labels an observation whose value, not only its shape, tells runs of the
   * build apart (an OCR reading under the build's threshold), for the failure
   * signature the run gets when it ends. It changes nothing the run does, so
   * it is not part of the code hash: a build that starts labelling keeps its hash.
   */
  readonly classifyObservation?: ObservationClassifier;
}

/** Everything that defines one build of an agent. */
export interface AgentDefinition extends AgentHooks {
  /** The agent's name, shared by all its builds (`claims-triage`). */
  readonly name: string;
  /** The build's name (`baseline`, `patched`, ...). */
  readonly build: string;
  readonly systemPrompt: SystemPrompt;
  readonly model: string;
  readonly params: ModelParams;
  readonly tools: readonly ToolSpec[];
  /** The most observations a run may take before it fails with `STEP_CAP_REACHED`. */
  readonly stepCap: number;
  /**
   * Bump when behaviour changes in ways the hook source does not show (a
   * constant the hooks import, say): it is part of the code hash.
   */
  readonly codeVersion?: string;
  /** The agent's own data the build keeps between observations; without it, it keeps none. */
  readonly state?: BuildStateSpec;
}

/** A defined build: its definition plus the hash of its code. */
export interface AgentBuild extends AgentDefinition {
  /** sha256 (16 hex) over the prompt, model, params, tool specs and normalised hook source (`codeHashOf`). */
  readonly codeHash: string;
}
