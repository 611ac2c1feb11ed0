export {
  FULL_CHECKPOINT_EVERY,
  type CheckpointDelta,
  type CheckpointSkeleton,
  type FullCheckpoint,
  type ConversationSegment,
  type RestoredCheckpoint,
} from './checkpoint-state.js';
export {
  CheckpointWriter,
  SEGMENT_MIN_MESSAGES,
  type ContinuedFrom,
  type EncodedCheckpoint,
} from './checkpoint-writer.js';
export { lineageOf, segmentAt, segmentsOfLineage, type LineageSegment } from './lineage.js';
export { decodeConversation, type DecodedConversation } from './decode-conversation.js';
export { restoreCheckpoint } from './restore-checkpoint.js';
export { MESSAGE_DIGEST_SEPARATOR, rowMessageDigests } from './row-messages.js';
export {
  MACHINE_MIGRATIONS,
  migrateMachineState,
  type MachineMigrated,
  type MachineMigration,
  type StoredMachineState,
} from './machine-migrations.js';
export { fitCheckpointToBuild, type FittedCheckpoint } from './fit-to-build.js';
