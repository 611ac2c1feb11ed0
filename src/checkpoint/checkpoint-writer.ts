import type { RequestHasher } from '../cassette/index.js';
import type { Message } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import type { AgentContext, AgentStateName } from '../machine/index.js';
import { MACHINE_VERSION } from '../machine/index.js';
import type { PayloadBatch } from '../payload/index.js';
import type { CheckpointDelta, CheckpointSkeleton, ConversationSegment, FullCheckpoint } from './checkpoint-state.js';
import { FULL_CHECKPOINT_EVERY } from './checkpoint-state.js';
import { MESSAGE_DIGEST_SEPARATOR } from './row-messages.js';

/** The fewest messages a conversation segment holds (see {@link CheckpointWriter}). */
export const SEGMENT_MIN_MESSAGES = 8;

/** The checkpoint a run continues from (a fork, a resume) instead of starting at checkpoint 0. */
export interface ContinuedFrom {
  /** How many messages the checkpoint holds: the run's rows append after them. */
  readonly messageCount: number;
  /**
   * Where the conversation segments of the run's own rows leave off: a
   * resumed run's next segment must start there, or a restore that reads its
   * segments would miss the messages between. Default `messageCount` (a fork,
   * whose rows begin here).
   */
  readonly segmentedUpTo?: number;
}

/** The checkpoint columns of one row, and the message the step appended. */
export interface EncodedCheckpoint {
  readonly checkpoint: string;
  readonly checkpointFull: boolean;
  readonly message: string | null;
  readonly messageDigest: string | null;
  readonly messageSegment: string | null;
}

/**
 * Encodes the checkpoint after each step of one run: a full skeleton on the
 * run's first row and every {@link FULL_CHECKPOINT_EVERY} steps, otherwise the
 * context fields that changed. Changes are found by identity, which the
 * machine's copy-on-write updates make exact, so a step costs O(what changed).
 *
 * A full row also stores a conversation segment when the run's rows have
 * appended at least {@link SEGMENT_MIN_MESSAGES} messages since the last one:
 * those messages, decoded, in one blob. The tool outputs in it are stored a
 * second time (they have blobs of their own), which buys a restore that parses
 * about 16 messages per read instead of one. Short runs, which restore fast
 * row by row, skip the write.
 */
export class CheckpointWriter {
  private previous: CheckpointSkeleton | undefined;
  private persistedMessages: number;
  /** Where the next conversation segment starts: after the last one. */
  private segmentStart: number;

  /**
   * @param hasher the run's request hasher, which owns message digests
   * @param resumedFrom the checkpoint this run continues from (a fork, a resume), if any
   */
  constructor(
    private readonly hasher: RequestHasher,
    resumedFrom?: ContinuedFrom,
  ) {
    this.persistedMessages = resumedFrom?.messageCount ?? 0;
    this.segmentStart = resumedFrom?.segmentedUpTo ?? this.persistedMessages;
  }

  /** Encodes the checkpoint of `value`/`context` at `step` into the step's payload batch. */
  encode(step: number, value: AgentStateName, context: AgentContext, batch: PayloadBatch): EncodedCheckpoint {
    const { message, messageDigest } = this.newMessage(context.messages, batch);
    const { messages: _messages, ...rest } = context;
    const skeleton: CheckpointSkeleton = { value, context: { ...rest, messageCount: context.messages.length } };
    const previous = this.previous;
    const full = previous === undefined || step % FULL_CHECKPOINT_EVERY === 0;
    const body: JsonValue = full
      ? ({ machineVersion: MACHINE_VERSION, ...skeleton } satisfies FullCheckpoint)
      : deltaBetween(previous, skeleton);
    this.previous = skeleton;
    return {
      checkpoint: batch.encode(body),
      checkpointFull: full,
      message,
      messageDigest,
      messageSegment: full ? this.segment(context.messages, batch) : null,
    };
  }

  private segment(messages: readonly Message[], batch: PayloadBatch): string | null {
    const start = this.segmentStart;
    if (messages.length - start < SEGMENT_MIN_MESSAGES) return null;
    this.segmentStart = messages.length;
    const digests = this.hasher.digestsOf(messages);
    const segment: ConversationSegment = {
      digests: digests.list.slice(start, digests.length),
      messages: messages.slice(start),
    };
    // JSON.stringify, not the canonical form: the blob is only ever parsed, and this is twice as fast.
    return batch.storeWhole(JSON.stringify(segment));
  }

  private newMessage(
    messages: readonly Message[],
    batch: PayloadBatch,
  ): { message: string | null; messageDigest: string | null } {
    const added = messages.length - this.persistedMessages;
    if (added === 0) return { message: null, messageDigest: null };
    if (added < 0) throw new Error(`a step removed ${-added} messages; a trajectory's conversation is append-only`);
    if (added === 1) {
      const messageDigest = this.hasher.lastDigest(messages, batch.canonicalTextOf);
      const message = messages.at(-1);
      if (messageDigest === undefined || message === undefined) throw new Error('a step appended no message');
      this.persistedMessages = messages.length;
      return { message: batch.encode(message), messageDigest };
    }
    // Several at once: only a wrapped loop's model step does this (its request brought the loop's own
    // messages, then the reply). They are stored as one list, their digests joined (see `rowMessages`).
    const digests = this.hasher.digestsOf(messages);
    const appended = messages.slice(this.persistedMessages);
    const messageDigest = digests.list.slice(this.persistedMessages, messages.length).join(MESSAGE_DIGEST_SEPARATOR);
    this.persistedMessages = messages.length;
    return { message: batch.encode(appended), messageDigest };
  }
}

function deltaBetween(previous: CheckpointSkeleton, next: CheckpointSkeleton): CheckpointDelta {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(next.context) as Array<keyof CheckpointSkeleton['context']>) {
    if (previous.context[key] !== next.context[key]) changed[key] = next.context[key];
  }
  return {
    ...(previous.value === next.value ? {} : { value: next.value }),
    ...(Object.keys(changed).length === 0 ? {} : { context: changed }),
  };
}
