import type {
  ApprovalAnswer,
  ApprovalQuestion,
  ModelRequest,
  ModelResponse,
  ToolRequest,
  ToolResponse,
} from '../conversation/index.js';
import type { Provenance } from '../vocabulary/index.js';

/** Where in the run a request stands, and what it hashes to. */
export interface CallPosition {
  readonly step: number;
  /** `model` or a tool name. */
  readonly kind: string;
  /** That kind's call number from 0. */
  readonly index: number;
  /** The request hash (16 hex) in the canonical form. */
  readonly requestHash: string;
  /** The canonical request text the hash was computed over. */
  readonly canonical: string;
}

/** A model request at its position. */
export interface ModelCall extends CallPosition {
  readonly request: ModelRequest;
}

/** A tool request at its position. */
export interface ToolCall extends CallPosition {
  readonly request: ToolRequest;
}

/**
 * A person's approval asked for at its position: the request is the
 * question (`{ tool: 'approval', input: question }`), so the step's request
 * hash, and its cassette key, are bound to the exact call it is about.
 */
export interface ApprovalCall extends CallPosition {
  readonly request: ToolRequest;
  readonly question: ApprovalQuestion;
}

/** An answer and where it came from. */
export interface Answered<T> {
  readonly response: T;
  readonly provenance: Provenance;
  /**
   * True when answering called a tool that is not read-only, for real, in a
   * run past its recording: the side-effect firewall was told to let it through.
   */
  readonly sideEffect?: true;
}

/**
 * What the driver asks for every observation. Implementations decide where an
 * answer comes from (the live world, a cassette, a fork's override) and say so
 * in its provenance. Modes differ only in the transport they hand the driver.
 *
 * Every implementation leaves the call as it was given (it is the run's own
 * state), answers each position with its own answer, keeps the answers it gave
 * as they were, fails only with a `ForkpointError` naming the call, and asks
 * the world only for what it answers `live`; `describeTransportConformance` in
 * `forkpoint/testing` checks all of it.
 */
export interface Transport {
  model(call: ModelCall): Promise<Answered<ModelResponse>>;
  tool(call: ToolCall): Promise<Answered<ToolResponse>>;
  /**
   * A person's answer to an approval, or `undefined` when nobody can answer
   * it here and now: the run then stops at rest, waiting for one (`forkpoint
   * approve`). Without this method no approval is ever answered: the live
   * world has no person in it. A cassette serves the recorded answer; a fork
   * may inject another. An answer must name the question's call hash.
   */
  approval?(call: ApprovalCall): Promise<Answered<ApprovalAnswer> | undefined>;
}
