import type { AgentBuild } from '../agent/index.js';
import type { RequestHasher } from '../cassette/index.js';
import { withFields } from '../json/index.js';
import type { NewRunRecord, RunRecord } from '../store/index.js';
import type { Transport } from '../transports/index.js';
import type { AgentSnapshot, DriveResult } from './drive-types.js';
import { driveRun } from './drive-run.js';
import type { EngineDeps } from './engine-deps.js';
import { finishOfFinalSnapshot, finishRun } from './finish-run.js';
import type { RunEnding } from './run-ending.js';
import type { RunOrigin } from './run-origin.js';
import type { RunSink } from './run-sink.js';
import type { RunWatcher } from './run-watcher.js';
import { RunWriter } from './run-writer.js';
import { machineOf } from './start-run.js';

/**
 * One run, as every mode composes it: a run record, a build, a starting
 * snapshot, a transport, a sink, where its rows start, how it ends and who
 * watches it. Modes differ only in these parts, and each mode gives all of
 * them: the driver asks none of them whether it is there.
 */
export interface Execution {
  readonly run: NewRunRecord;
  readonly agent: AgentBuild;
  readonly start: AgentSnapshot;
  readonly hasher: RequestHasher;
  readonly transport: Transport;
  readonly sink: RunSink;
  /** Where the run's rows start: at checkpoint 0, or after the checkpoint a fork or a resume restored. */
  readonly origin: RunOrigin;
  /** How the end of the drive becomes the run's end. */
  readonly ending: RunEnding;
  /** Told when the run exists and of every step once the sink has it. */
  readonly watcher: RunWatcher;
}

/** How an execution ended, and its run as now stored (so that callers need not read it back). */
export interface ExecutedRun extends DriveResult {
  readonly stored: RunRecord;
}

/** Runs an execution to its end and stores it. Expected failures end up in the stored run, not thrown. */
export async function executeRun(deps: Pick<EngineDeps, 'clock'>, execution: Execution): Promise<ExecutedRun> {
  const { ending, watcher } = execution;
  const writer = new RunWriter(execution.sink, execution.hasher, execution.origin, execution.agent.classifyObservation);
  await writer.start(execution.run, execution.start);
  // Under the id the sink stored it with: a minted id that was taken has been replaced.
  watcher.started(execution.sink.runId);
  try {
    const result = await finishRun(deps, writer, ending, () =>
      driveRun({
        build: execution.agent,
        machine: machineOf(execution.agent),
        snapshot: execution.start,
        transport: execution.transport,
        hasher: execution.hasher,
        onStep: async (step) => {
          // A live run's final step ends it in the same commit; a judged one ends once it is judged.
          const finish =
            ending.kind === 'at-final-step' && step.snapshot.status !== 'active'
              ? finishOfFinalSnapshot(step.snapshot, deps.clock())
              : undefined;
          await writer.commit(step, finish);
          watcher.committed(step);
        },
      }),
    );
    return withFields(result, { stored: writer.storedRun() });
  } finally {
    execution.sink.close();
  }
}
