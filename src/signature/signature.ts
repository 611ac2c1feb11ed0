import type { StopReason } from '../conversation/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { RunStatus } from '../vocabulary/index.js';

/**
 * The version of the signature's definition. A change to what a signature
 * keeps, or how it collapses repeats, bumps it: signatures of two versions
 * are never compared, and `similar` says when a run's was made by another.
 */
export const SIGNATURE_VERSION = 2;

// Types, not interfaces: a type is assignable to `JsonValue`, so signatures are stored as the plain JSON they are.

/** A model step as a signature keeps it: the tools it asked for, in order, or, asking none, why it stopped. */
export type ModelShape = {
  readonly kind: 'model';
  readonly asks: readonly string[];
  readonly stop: StopReason;
};

/**
 * A tool step as a signature keeps it: the tool, the type skeleton of its
 * output (as a short digest), whether it was an error, and the class the
 * build gave the observation (`classifyObservation`), or null.
 */
export type ToolShape = {
  readonly kind: 'tool';
  readonly tool: string;
  readonly output: string;
  readonly isError: boolean;
  readonly label: string | null;
};

/** One step of a trajectory, as a signature keeps it. */
export type StepShape = ModelShape | ToolShape;

/**
 * Steps that repeated back to back, kept once: how many times does not matter
 * to the class. The block may hold a repeat of its own (a loop in a loop).
 */
export type RepeatedShapes = { readonly kind: 'repeat'; readonly steps: readonly TrajectoryPart[] };

/** One part of a signature's trajectory: a step, or a block of steps that repeated. */
export type TrajectoryPart = StepShape | RepeatedShapes;

/** How a run ended, as a signature keeps it: no message, no value, only its kind. */
export type SignatureEnding = {
  readonly status: Exclude<RunStatus, 'running' | 'interrupted' | 'awaiting-approval'>;
  /** The error's code; null for a run that completed. */
  readonly code: ErrorCode | null;
  /** What the failing step was: `model`, a tool's name, or null when the run completed or failed between steps. */
  readonly at: string | null;
};

/**
 * How a run ended, with what varies between runs of one class left out: the
 * shape of its trajectory (see {@link StepShape}, repeats collapsed), how it
 * ended, and the observation that led there. Two runs are of one class when
 * their digests are equal. Computed when the run ends and stored with it, so
 * it outlives the full tier. It holds no payload: tool names, type
 * skeletons, the build's class labels, codes.
 */
export type FailureSignature = {
  readonly version: number;
  /** A digest of everything below: equal digests, one class. */
  readonly digest: string;
  readonly trajectory: readonly TrajectoryPart[];
  readonly ending: SignatureEnding;
  /**
   * The observation that led to the ending: the last tool step the build
   * labelled, else the last tool step before the ending; its index in
   * `trajectory`, or null for a run with no tool step.
   */
  readonly lead: number | null;
};

/** Whether `value` has the form of a {@link FailureSignature}: what a store checks of the column it reads one from. */
export function isFailureSignature(value: unknown): value is FailureSignature {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof FailureSignature, unknown>>;
  const ending = candidate.ending as Partial<Record<keyof SignatureEnding, unknown>> | null | undefined;
  return (
    typeof candidate.version === 'number' &&
    typeof candidate.digest === 'string' &&
    Array.isArray(candidate.trajectory) &&
    typeof ending === 'object' &&
    ending !== null &&
    typeof ending.status === 'string' &&
    (candidate.lead === null || typeof candidate.lead === 'number')
  );
}
