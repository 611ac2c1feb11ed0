import type { Message } from '../conversation/index.js';
import type { AgentContext } from '../machine/index.js';
import type { AgentStateName } from '../machine/index.js';
import type { MachineMigrated } from './machine-migrations.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so a checkpoint is encoded as the plain JSON it is.

/**
 * A checkpoint as stored: the machine's state and context, with the
 * conversation replaced by its length. Messages live once, in the rows that
 * appended them, so a checkpoint's size does not grow with the run.
 */
export type CheckpointSkeleton = {
  readonly value: AgentStateName;
  readonly context: SkeletonContext;
};

/** A checkpoint's context: the machine's, with the conversation replaced by its length. */
export type SkeletonContext = Omit<AgentContext, 'messages'> & { readonly messageCount: number };

/** A full checkpoint row also names the machine version it was written by. */
export type FullCheckpoint = CheckpointSkeleton & {
  readonly machineVersion: number;
};

/**
 * What a full-checkpoint row's conversation segment blob holds: the messages
 * the run's rows appended since its previous segment, through this one,
 * decoded (plain JSON), with their digests.
 */
export type ConversationSegment = {
  readonly digests: readonly string[];
  readonly messages: readonly Message[];
};

/** A delta row: the state if it changed, and the context fields that changed, whole. */
export type CheckpointDelta = {
  readonly value?: AgentStateName;
  readonly context?: Partial<SkeletonContext>;
};

/**
 * A full checkpoint every this many steps bounds the deltas a restore applies;
 * a run's first row is always full, so a fork never chains into its parent.
 */
export const FULL_CHECKPOINT_EVERY = 16;

/** A restored checkpoint: plain, freshly parsed state a machine can resume from. */
export interface RestoredCheckpoint {
  readonly value: AgentStateName;
  readonly context: AgentContext;
  /** The digest of each message, in order, for the request hasher. */
  readonly messageDigests: readonly string[];
  /** Present when the checkpoint was written by an older machine and forkpoint's migrations brought it here. */
  readonly machineMigrated?: MachineMigrated;
}
