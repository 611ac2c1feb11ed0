export { GC_BATCH_RUNS, GC_BATCH_STEPS, collectGarbage } from './collect-garbage.js';
export type { CollectedRun, GcOptions, GcReport } from './collect-garbage.js';
export { checkedPeriods } from './retention-periods.js';
export {
  applyCapturePolicy,
  decideCapture,
  formatCapturePolicy,
  parseCapturePolicy,
  sampleDraw,
} from './capture-policy.js';
export type { CaptureDecision, CapturePolicy, CaptureReport } from './capture-policy.js';
