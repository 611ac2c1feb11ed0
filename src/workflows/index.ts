export { probeDrift } from './drift-probe.js';
export type { DriftOptions, DriftReport, DriftStep } from './drift-probe.js';
export { runSuite } from './run-suite.js';
export type { SuiteCase, SuiteInput, SuiteOptions, SuiteResult, SuiteSource } from './run-suite.js';
export { verifyRun } from './verify-run.js';
export type { VerifyOptions } from './verify-run.js';
export type { ArmRun, VerificationArm, VerificationRuns, VerifyResult } from './verification-result.js';
export { differencesBetween, evaluateSynthetic } from './evaluate-synthetic.js';
export type {
  EvaluateOptions,
  SyntheticCaseResult,
  SyntheticDifference,
  SyntheticEvaluation,
} from './evaluate-synthetic.js';
export { divergenceReport } from './divergence-report.js';
export type { DivergenceReportOptions, ReexecutionPlan } from './divergence-report.js';
export {
  classifyReexecution,
  divergenceReportDocument,
  type DivergenceReport,
  type DivergenceReportDocument,
  type FirewalledRun,
  type ReportedReexecution,
  type SkippedRun,
} from './reexecution-divergence.js';
export { lintFirstRequest } from './lint-first-request.js';
export type { LintEnvironment, LintFinding, LintReport } from './lint-first-request.js';
export { storedDivergenceReport, storedDivergenceReports } from './stored-divergence-report.js';
export type { StoredDivergenceQuery, StoredDivergenceRef } from './stored-divergence-report.js';
export { storedVerification, storedVerifications, verificationsIn } from './stored-verification.js';
export type { StoredVerificationQuery, StoredVerificationRef } from './stored-verification.js';
export { similarRuns } from './similar-runs.js';
export type { SimilarQuery, SimilarResult } from './similar-runs.js';
export { runClasses } from './run-classes.js';
export type { ClassesQuery, ClassesResult, RunClass } from './run-classes.js';
export type { GroupCounts, VerifiedFix } from './signature-classes.js';
export {
  countsWords,
  daysWords,
  endingWords,
  leadWords,
  percent,
  sinceWords,
  trajectoryWords,
} from './signature-words.js';
