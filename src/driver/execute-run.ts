import type { AgentBuild } from '../agent/index.js';
import type { RequestHasher } from '../cassette/index.js';
import type { ContinuedFrom } from '../checkpoint/index.js';
import type { Divergence } from '../vocabulary/index.js';
import type { NewRunRecord, RunRecord } from '../store/index.js';
import type { Transport } from '../transports/index.js';
import type { AgentSnapshot, CompletedStep, DriveResult } from './drive-run.js';
import { driveRun } from './drive-run.js';
import type { EngineDeps } from './engine-deps.js';
import { finishOfFinalSnapshot, finishRun } from './finish-run.js';
import type { RunSink } from './run-sink.js';
import { RunWriter } from './run-writer.js';
import { machineOf } from './start-run.js';

/**
 * One run, as every mode composes it: a run record, a build, a starting
 * snapshot, a transport and a sink. Modes differ only in these parts.
 */
export interface Execution {
  readonly run: NewRunRecord;
  readonly agent: AgentBuild;
  readonly start: AgentSnapshot;
  readonly hasher: RequestHasher;
  readonly transport: Transport;
  readonly sink: RunSink;
  /** The restored checkpoint a fork or a resume continues from; its rows start after it. */
  readonly resumedFrom?: ContinuedFrom;
  /** Told once the run has been created (or taken up), before its first step. */
  readonly onStarted?: () => void;
  /** Told of every step once it is handed to the sink (a replay keeps them to answer without reading its run back). */
  readonly onCommitted?: (step: CompletedStep) => void;
  /** Judges how the drive ended before it is stored (a structural replay turns an early end into a divergence). */
  readonly settle?: (result: DriveResult) => DriveResult;
  /** Findings to store with the run once it has ended (divergences, dropped calls). */
  readonly findings?: (result: DriveResult) => readonly Divergence[];
}

/** How an execution ended, and its run as now stored (so that callers need not read it back). */
export interface ExecutedRun extends DriveResult {
  readonly stored: RunRecord;
}

/** Runs an execution to its end and stores it. Expected failures end up in the stored run, not thrown. */
export async function executeRun(deps: Pick<EngineDeps, 'clock'>, execution: Execution): Promise<ExecutedRun> {
  const writer = new RunWriter(execution.sink, execution.hasher, execution.resumedFrom);
  await writer.start(execution.run, execution.start);
  execution.onStarted?.();
  // A final snapshot says how the run ended, so its step ends the run in the same commit; unless the
  // execution judges the whole drive first (a replay's settle and findings), which then ends it apart.
  const judgesDrive = execution.settle !== undefined || execution.findings !== undefined;
  const endedBy = (step: CompletedStep) =>
    step.snapshot.status === 'active' || judgesDrive ? undefined : finishOfFinalSnapshot(step.snapshot, deps.clock());
  try {
    const result = await finishRun(
      deps,
      writer,
      async () => {
        const result = await driveRun({
          build: execution.agent,
          machine: machineOf(execution.agent),
          snapshot: execution.start,
          transport: execution.transport,
          hasher: execution.hasher,
          onStep: async (step) => {
            await writer.commit(step, endedBy(step));
            execution.onCommitted?.(step);
          },
        });
        return execution.settle === undefined ? result : execution.settle(result);
      },
      execution.findings,
    );
    return { ...result, stored: writer.storedRun() };
  } finally {
    execution.sink.close();
  }
}
