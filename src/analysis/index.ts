export { changedFields, diffJson } from './diff-json.js';
export { describeDivergence, inWritingOrder, type UnwordedDivergence } from './divergence.js';
export { ReplayDivergence } from './replay-divergence.js';
export {
  compareRuns,
  observationOf,
  type ComparableStep,
  type ComparedApproval,
  type ComparedRun,
  type ComparedSide,
  type ComparedStep,
  type FirstDivergence,
  type RunComparison,
} from './compare-runs.js';
export { branchCostOf, compareCosts, type BranchCost, type CostComparison } from './compare-costs.js';
export { outcomeHistogram, outcomeKey, type CountedRun } from './outcome-histogram.js';
export { judgeVerification, type Judgement, type Verdict, type VerificationEvidence } from './verdict.js';
export {
  DIVERGENCE_MEANINGS,
  stoppedOnRecording,
  DIVERGENCE_SOURCES,
  classifyDivergence,
  type DivergenceSide,
  type DivergenceSource,
  type SourcedDivergence,
  type SourcedStep,
} from './divergence-source.js';
export { tallyDivergences, type DivergenceRow, type DivergenceTable } from './divergence-table.js';
export { holdsMessageDigests, requestWithMessages, type DigestedMessage } from './request-with-messages.js';
export { VOLATILE_PATTERNS, maskVolatile, volatileKindsBetween, type VolatilePattern } from './volatile-spans.js';
export { differingSpans, type DifferingSpan } from './differing-spans.js';
export { divergenceOfMiss } from './divergence-of-miss.js';
