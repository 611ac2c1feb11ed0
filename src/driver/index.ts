export { DEFAULT_LEASE_MS, resolveEngineDeps } from './engine-deps.js';
export type { EngineDeps, EngineOptions } from './engine-deps.js';
export { isOwnerAlive, newRunOwner, ownerCheck } from './run-owner.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { driveRun } from './drive-run.js';
export { toolDefinitionsOf } from './tool-definitions.js';
export { modelRequestOf } from './model-request-of.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export type { AgentSnapshot, CompletedStep, DriveOptions, DriveResult } from './drive-types.js';
export { hostIdentity } from './host-identity.js';
export { RUN_ID_ATTEMPTS } from './fresh-run-id.js';
export { assertRunId, assertSeed, assertWorldDate, newRunIdentity } from './validate-inputs.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { machineOf, startSnapshot } from './start-run.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { executeRun } from './execute-run.js';
export { RunWriter } from './run-writer.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export type { Execution } from './execute-run.js';
export { guardedWorld } from './guarded-world.js';
export { newRunRecord } from './new-run-record.js';
export { bufferedSink, discardingSink, streamingSink, type RunSink } from './run-sink.js';
export { FROM_INPUT, continuedFrom } from './run-origin.js';
export type { RunOrigin } from './run-origin.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { AT_FINAL_STEP } from './run-ending.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export type { JudgedDrive, RunEnding } from './run-ending.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export { UNWATCHED } from './run-watcher.js';
/** @internal Names the machine's xstate types, kept out of the published declarations (tsconfig.build.json). */
export type { RunWatcher } from './run-watcher.js';
export type { CompletedStepOf, StepSnapshot } from './completed-step.js';
