/**
 * `forkpoint/analysis`: what the `compare`, `divergence-report`, `drift` and
 * `lint` commands compute, over the public engine: two runs compared step by
 * step, where and why re-executions leave their recordings, what the world of
 * another date answers to a run's tool requests, and the volatile parts of a
 * build's first request.
 *
 * @example
 * ```ts
 * import { compareRuns } from 'forkpoint/analysis';
 * const comparison = compareRuns(engine.getRun(a), engine.getRun(b), (step) => step.kind);
 * comparison.firstDivergence; // null when the two runs asked and heard the same things
 * ```
 */
export {
  DIVERGENCE_SOURCES,
  classifyDivergence,
  compareRuns,
  diffJson,
  tallyDivergences,
  type BranchCost,
  type ComparableStep,
  type ComparedApproval,
  type ComparedRun,
  type CostComparison,
  type ComparedSide,
  type ComparedStep,
  type DivergenceRow,
  type DivergenceSide,
  type DivergenceSource,
  type DivergenceTable,
  type FirstDivergence,
  type RunComparison,
  type SourcedDivergence,
  type SourcedStep,
} from '../analysis/index.js';
export type { FieldChange } from '../vocabulary/index.js';
export {
  divergenceReport,
  lintFirstRequest,
  probeDrift,
  type DriftOptions,
  type DriftReport,
  type DriftStep,
  type DivergenceReport,
  type DivergenceReportOptions,
  type LintEnvironment,
  type LintFinding,
  type LintReport,
  type ReexecutionPlan,
  type ReportedReexecution,
  type SkippedRun,
  runClasses,
  similarRuns,
  endingWords,
  leadWords,
  trajectoryWords,
  type ClassesQuery,
  type ClassesResult,
  type GroupCounts,
  type RunClass,
  type SimilarQuery,
  type SimilarResult,
  type VerifiedFix,
} from '../workflows/index.js';
export {
  SIGNATURE_VERSION,
  signatureOf,
  typeSkeleton,
  type FailureSignature,
  type ModelShape,
  type RepeatedShapes,
  type SignatureEnding,
  type SignedEnding,
  type StepShape,
  type ToolShape,
  type TrajectoryPart,
} from '../signature/index.js';
export type { SignedRun, SignedRunQuery } from '../store/index.js';
