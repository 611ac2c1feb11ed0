import type { MessageDigests } from '../cassette/index.js';
import type { ModelRequest, ModelResponse, ToolRequest, ToolResponse } from '../conversation/index.js';
import type { AgentContext, AgentStateName } from '../machine/index.js';
import type { Provenance } from '../vocabulary/index.js';

/**
 * What a step's checkpoint is written from: the state the loop is in, and its
 * context. The machine's snapshot is one; a wrapped loop's session keeps one
 * of its own.
 */
export type StepSnapshot = { readonly value: AgentStateName; readonly context: AgentContext };

/**
 * One completed step, whose snapshot is `S`: what was asked, what came back,
 * and the state after it. A driven run's steps carry the machine's snapshot;
 * a wrapped loop's, the state its session keeps.
 */
export type CompletedStepOf<S extends StepSnapshot> = {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly requestHash: string;
  /** The canonical request text the request hash was computed over. */
  readonly canonical: string;
  readonly provenance: Provenance;
  /** True when the step called a side-effecting tool for real, past a recording (see `firewalledTransport`). */
  readonly sideEffect?: true;
  readonly snapshot: S;
} & (
  | {
      readonly type: 'model';
      readonly request: ModelRequest;
      readonly response: ModelResponse;
      /** The request's messages by digest, and its other fields' canonical text: its canonical form in parts. */
      readonly messageDigests: MessageDigests;
      readonly headText: string;
    }
  | { readonly type: 'tool'; readonly request: ToolRequest; readonly response: ToolResponse }
);
