export { RUN_MODES, type RunMode } from './run-mode.js';
export { RUN_STATUSES, hasEnded, type RunStatus } from './run-status.js';
export { PROVENANCES, type Provenance } from './provenance.js';
export type { Tier } from './tier.js';
export {
  isFinding,
  isDivergence,
  isShapedFinding,
  type Divergence,
  type DivergenceClass,
  type DroppedCallFinding,
  type FieldChange,
  type Finding,
  type MissFinding,
  type ShapedFinding,
} from './finding.js';
export {
  describeCheckpointMigration,
  isCheckpointMigration,
  type CheckpointMigration,
} from './checkpoint-migration.js';
