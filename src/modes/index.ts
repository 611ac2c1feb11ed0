export type {
  ApproveResult,
  ForkResult,
  RecordResult,
  ReexecutionResult,
  ReplayResult,
  ResumeResult,
} from './mode-results.js';
export { approveRun, type ApproveOptions } from './approve-run.js';
export { recordRun } from './record-run.js';
export type { RecordOptions } from './record-run.js';
export { forkRun } from './fork-run.js';
export type { ForkOptions } from './fork-run.js';
export { reexecuteRun } from './reexecute-run.js';
export type { ReexecuteOptions } from './reexecute-run.js';
export { replayRun } from './replay-run.js';
export type { ReplayOptions } from './replay-run.js';
export { resumeRun } from './resume-run.js';
export { requireDriven, type DrivenUse, type RecordingOrigin } from './require-driven.js';
export type { ResumeOptions } from './resume-run.js';
