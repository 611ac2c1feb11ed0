export { effectiveStatus, readRunView, requireRun, runNotFound, summarizeRun, withSteps } from './read-run.js';
export type { OwnerCheck } from './read-run.js';
export { attemptOf, readStepAt, readStepViews } from './step-views.js';
export type { StepRange } from './step-views.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { stepViewer } from './step-views.js';
export { DEFAULT_PAGE_SIZE, runPage } from './run-page.js';
export type { RunPage, RunPageQuery } from './run-page.js';
export {
  fullCassetteOf,
  requireFullTier,
  requireUnexpiredCassette,
  tierOfCopy,
  type FullTierUse,
} from './full-tier.js';
export { structuralRecordOf } from './structural-record.js';
export { tierSizesOf } from './tier-sizes.js';
export type { TierSizes } from './tier-sizes.js';
export { lineageTreeOf } from './lineage-tree.js';
export type { Lineage, LineageNode } from './lineage-tree.js';
export type { AgentRef, RunRetention, RunSummary, RunView, StepView } from './run-view.js';
export { PLAINTEXT_NOTICE, exportCassette, readCassette } from './exported-cassette.js';
export type { ExportOptions, ExportedCassette } from './exported-cassette.js';
export { cassetteOfRun } from './cassette-of-run.js';
export { redactedSummary } from './redact-summary.js';
export { priceTablesOf } from './run-prices.js';
export { stepShapesOf } from './step-shapes.js';
export { pendingApprovalOf, waitingApprovalOf, type PendingApproval } from './pending-approval.js';
export { answeredApprovalsOf, type AnsweredApproval, type ApprovalStepFacts } from './answered-approvals.js';
