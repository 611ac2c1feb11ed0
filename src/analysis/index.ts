export { changedFields, diffJson, type FieldChange } from './diff-json.js';
export { describeDivergence, type Divergence, type DivergenceClass } from './divergence.js';
export { ReplayDivergence } from './replay-divergence.js';
export { compareRuns, type ComparableStep, type ComparedRun, type ComparedSide, type ComparedStep, type FirstDivergence, type RunComparison } from './compare-runs.js';
export { outcomeHistogram, outcomeKey, type CountedRun } from './outcome-histogram.js';
export { judgeVerification, type Judgement, type Verdict, type VerificationEvidence } from './verdict.js';
