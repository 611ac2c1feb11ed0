export { createEngine, type Engine } from './create-engine.js';
export { ownerCheck, resolveEngineDeps, type EngineDeps, type EngineOptions } from '../driver/index.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export {
  driveRun,
  toolDefinitionsOf,
  type AgentSnapshot,
  type CompletedStep,
  type DriveOptions,
  type DriveResult,
} from '../driver/index.js';
export {
  effectiveStatus,
  readRunView,
  readStepViews,
  requireRun,
  summarizeRun,
  type OwnerCheck,
} from '../read/index.js';
export type { RecordOptions } from '../modes/index.js';
export type { ForkOptions } from '../modes/index.js';
export type { ApproveOptions, ResumeOptions } from '../modes/index.js';
export { requireDriven, type DrivenUse, type RecordingOrigin } from '../modes/index.js';
export { attemptOf } from '../read/index.js';
export { DEFAULT_LEASE_MS } from '../driver/index.js';
export { hostIdentity } from '../driver/index.js';
export type { ReexecuteOptions } from '../modes/index.js';
export type { ReplayOptions } from '../modes/index.js';
export type { AgentRef, RunRetention, RunSummary, RunView, StepView } from '../read/index.js';
export { answeredApprovalsOf, type AnsweredApproval, type PendingApproval } from '../read/index.js';
export {
  decideCapture,
  formatCapturePolicy,
  parseCapturePolicy,
  sampleDraw,
  type CaptureDecision,
  type CaptureReport,
  type CapturePolicy,
} from '../retention/index.js';
export { GC_BATCH_RUNS, GC_BATCH_STEPS, type CollectedRun, type GcOptions, type GcReport } from '../retention/index.js';
export { DEFAULT_PAGE_SIZE, type RunPage, type RunPageQuery } from '../read/index.js';
export { RUN_ID_ATTEMPTS } from '../driver/index.js';
export type { TierSizes } from '../read/index.js';
export {
  PLAINTEXT_NOTICE,
  exportCassette,
  readCassette,
  type ExportOptions,
  type ExportedCassette,
} from '../read/index.js';
export { assertRunId, assertSeed, assertWorldDate, newRunIdentity } from '../driver/index.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { machineOf, startSnapshot } from '../driver/index.js';
export { lineageTreeOf, type Lineage, type LineageNode } from '../read/index.js';
export type { ForkResult } from '../modes/index.js';
export type { RecordResult } from '../modes/index.js';
export type { ReexecutionResult } from '../modes/index.js';
export type { ReplayResult } from '../modes/index.js';
export type { ApproveResult, ResumeResult } from '../modes/index.js';
