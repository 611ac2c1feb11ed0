export { createEngine, type Engine } from './create-engine.js';
export { resolveEngineDeps, type EngineDeps, type EngineOptions } from './engine-deps.js';
export {
  driveRun,
  toolDefinitionsOf,
  type AgentSnapshot,
  type CompletedStep,
  type DriveOptions,
  type DriveResult,
} from './drive-run.js';
export { effectiveStatus, readRunView, readStepViews, requireRun, summarizeRun, type OwnerCheck } from './read-run.js';
export type { RecordOptions } from './record-run.js';
export type { ForkOptions } from './fork-run.js';
export type { ResumeOptions } from './resume-run.js';
export { attemptOf } from './read-run.js';
export { DEFAULT_LEASE_MS } from './engine-deps.js';
export { hostIdentity } from './host-identity.js';
export type { ReexecuteOptions } from './reexecute-run.js';
export type { ReplayOptions } from './replay-run.js';
export type {
  AgentRef,
  ForkResult,
  RecordResult,
  ReexecutionResult,
  ReplayResult,
  ResumeResult,
  RunRetention,
  RunSummary,
  RunView,
  StepView,
} from './run-view.js';
export {
  decideCapture,
  formatCapturePolicy,
  parseCapturePolicy,
  sampleDraw,
  type CaptureDecision,
  type CaptureReport,
  type CapturePolicy,
} from './capture-policy.js';
export { GC_BATCH_RUNS, GC_BATCH_STEPS, type CollectedRun, type GcOptions, type GcReport } from './collect-garbage.js';
export { DEFAULT_PAGE_SIZE, type RunPage, type RunPageQuery } from './run-page.js';
export { RUN_ID_ATTEMPTS } from './fresh-run-id.js';
export type { TierSizes } from './tier-sizes.js';
export {
  PLAINTEXT_NOTICE,
  exportCassette,
  readCassette,
  type ExportOptions,
  type ExportedCassette,
} from './exported-cassette.js';
export { assertRunId, assertSeed, assertWorldDate, newRunIdentity } from './validate-inputs.js';
export { machineOf, startSnapshot } from './start-run.js';
export { lineageTreeOf, type Lineage, type LineageNode } from './lineage-tree.js';
export type { VerificationArm, VerifyOptions, VerifyResult } from './verify-run.js';
export type { SuiteCase, SuiteInput, SuiteOptions, SuiteResult, SuiteSource } from './run-suite.js';
export {
  differencesBetween,
  evaluateSynthetic,
  type EvaluateOptions,
  type SyntheticCaseResult,
  type SyntheticDifference,
  type SyntheticEvaluation,
} from './evaluate-synthetic.js';
export {
  divergenceReport,
  type DivergenceReport,
  type DivergenceReportOptions,
  type ReexecutionPlan,
  type ReportedReexecution,
  type SkippedRun,
} from './divergence-report.js';
export { probeDrift, type DriftOptions, type DriftReport, type DriftStep } from './drift-probe.js';
export { lintFirstRequest, type LintEnvironment, type LintFinding, type LintReport } from './lint-first-request.js';
