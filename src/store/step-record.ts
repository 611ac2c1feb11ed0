import type { Provenance } from '../vocabulary/index.js';

/**
 * One row of a run's trajectory: the observation of step k and checkpoint k,
 * the state after it. Row 0 is the start: no observation, checkpoint 0, and
 * the first user message. Payload columns hold encoded payloads (see
 * `encodePayload`): small canonical JSON whose large subtrees are references
 * to shared blobs, so a row never holds a second copy of a payload.
 */
export interface StepRecord {
  readonly step: number;
  /** `model` or a tool name; null on row 0. */
  readonly kind: string | null;
  /** The kind's call number from 0; null on row 0. */
  readonly index: number | null;
  readonly requestHash: string | null;
  /**
   * The encoded request. For a model step, everything but the messages; the
   * request carried the run's first `messageCount` messages.
   */
  readonly request: string | null;
  readonly messageCount: number | null;
  /** The encoded response: a model response, or a tool's output. */
  readonly response: string | null;
  /** True when a tool answered with an error. */
  readonly isError: boolean;
  readonly provenance: Provenance | null;
  /** True when the step called a tool that is not read-only, for real, in a run past its recording. */
  readonly sideEffect: boolean;
  /** The encoded message this step appended to the conversation, if it appended one. */
  readonly message: string | null;
  /** That message's digest in the canonical request form. */
  readonly messageDigest: string | null;
  /** The encoded checkpoint after this step: a full state or a delta from the previous row. */
  readonly checkpoint: string;
  readonly checkpointFull: boolean;
  /**
   * On a full-checkpoint row, or null: the digest of one blob that holds,
   * decoded (plain JSON, no references) and with their digests, every message
   * the run's rows appended since its previous segment, through this one, so
   * that a restore reads the conversation in a few large pieces instead of
   * message by message. A writer may skip a segment (the next one then covers
   * its messages); rows written before segments existed have none.
   */
  readonly messageSegment: string | null;
}

/** The checkpoint columns of a row: all a restore reads from the rows of its chain. */
export type CheckpointRow = Pick<StepRecord, 'step' | 'checkpoint' | 'checkpointFull'>;

/**
 * The messages a run's own rows appended over a range of steps, read in a few
 * pieces when the range starts at the run's first row: the conversation
 * segments in the range (blobs, whose bodies hold many messages each), then
 * the messages of the rows after the last of them, so that a restore parses
 * large texts instead of row by row.
 */
export interface MessageLog {
  /**
   * The bodies of the conversation segment blobs in the range, in step order:
   * each the JSON text of `{ digests, messages }`, decoded messages and their
   * digests (see `StepRecord.messageSegment`).
   */
  readonly segments: readonly string[];
  /** The stored (encoded) messages of the rows after the last segment's row, in step order (see `StepRecord.message`). */
  readonly messages: readonly string[];
  /** The digests (canonical request form) of those messages, in the same order. */
  readonly digests: readonly string[];
}
