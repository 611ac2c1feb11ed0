export { createEngine, type Engine } from './create-engine.js';
export { resolveEngineDeps, type EngineDeps, type EngineOptions } from './engine-deps.js';
export { driveRun, toolDefinitionsOf, type AgentSnapshot, type CompletedStep, type DriveOptions, type DriveResult } from './drive-run.js';
export { effectiveStatus, readRunView, readStepViews, requireRun, summarizeRun } from './read-run.js';
export type { RecordOptions } from './record-run.js';
export type { AgentRef, RecordResult, RunSummary, RunView, StepView } from './run-view.js';
export { assertRunId, assertSeed, assertWorldDate } from './validate-inputs.js';
export { machineOf, startSnapshot } from './start-run.js';
