export { probeDrift } from './drift-probe.js';
export type { DriftOptions, DriftReport, DriftStep } from './drift-probe.js';
export { runSuite } from './run-suite.js';
export type { SuiteCase, SuiteInput, SuiteOptions, SuiteResult, SuiteSource } from './run-suite.js';
export { verifyRun } from './verify-run.js';
export type { VerificationArm, VerifyOptions, VerifyResult } from './verify-run.js';
export { differencesBetween, evaluateSynthetic } from './evaluate-synthetic.js';
export type {
  EvaluateOptions,
  SyntheticCaseResult,
  SyntheticDifference,
  SyntheticEvaluation,
} from './evaluate-synthetic.js';
export { divergenceReport } from './divergence-report.js';
export type {
  DivergenceReport,
  DivergenceReportOptions,
  ReexecutionPlan,
  ReportedReexecution,
  SkippedRun,
} from './divergence-report.js';
export { lintFirstRequest } from './lint-first-request.js';
export type { LintEnvironment, LintFinding, LintReport } from './lint-first-request.js';
