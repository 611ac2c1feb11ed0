import type { SnapshotFrom } from 'xstate';
import type { AgentBuild } from '../agent/index.js';
import type { RequestHasher } from '../cassette/index.js';
import type { ForkpointError } from '../errors/index.js';
import { isForkpointError } from '../errors/index.js';
import type { AgentMachine, RunFailure } from '../machine/index.js';
import { awaitingOf } from '../machine/index.js';
import type { Transport } from '../transports/index.js';
import type { CompletedStepOf } from './completed-step.js';
import { askApproval, callTool, observeModel } from './observe-step.js';

/** A snapshot of an agent machine. */
export type AgentSnapshot = SnapshotFrom<AgentMachine>;

/** One completed step of a driven run: its snapshot is the machine's. */
export type CompletedStep = CompletedStepOf<AgentSnapshot>;

/** What {@link driveRun} needs. */
export interface DriveOptions {
  readonly build: AgentBuild;
  readonly machine: AgentMachine;
  readonly snapshot: AgentSnapshot;
  readonly transport: Transport;
  readonly hasher: RequestHasher;
  /** Called after every step, before the next request: the place to persist it (awaited). */
  readonly onStep: (step: CompletedStep) => Promise<void>;
}

/** Where a drive stopped: the last snapshot, and the error that stopped it early, if any. */
export interface DriveResult {
  readonly snapshot: AgentSnapshot;
  readonly stoppedBy: { readonly failure: RunFailure; readonly error: ForkpointError } | null;
  /**
   * True when the run stopped at rest, waiting for a person's approval that
   * nobody could give here (see `Transport.approval`): its last checkpoint
   * awaits it, and `forkpoint approve` continues it.
   */
  readonly waitingForApproval: boolean;
}

/**
 * The driver: asks the machine what it awaits, hashes the request, asks the
 * transport, sends the answer in as an event, and hands the step to `onStep`,
 * until the machine reaches a final state, or waits for a person's approval
 * that nobody here can give. All I/O happens here; the machine stays pure. A
 * `ForkpointError` from the transport (a provider refusing a request, a
 * replay diverging) stops the drive and is returned, not thrown.
 */
export async function driveRun(options: DriveOptions): Promise<DriveResult> {
  let snapshot = options.snapshot;
  for (;;) {
    const awaiting = awaitingOf(snapshot);
    if (snapshot.status !== 'active' || awaiting === undefined)
      return { snapshot, stoppedBy: null, waitingForApproval: false };
    const at = { snapshot, step: snapshot.context.step + 1 };
    let completed: CompletedStep | undefined;
    try {
      completed =
        awaiting.type === 'model'
          ? await observeModel(options, at, awaiting)
          : awaiting.type === 'approval'
            ? await askApproval(options, at, awaiting)
            : await callTool(options, at, awaiting);
    } catch (error) {
      if (!isForkpointError(error) || error.code === 'INTERNAL') throw error;
      return {
        snapshot,
        stoppedBy: { failure: { code: error.code, message: error.message, step: at.step }, error },
        waitingForApproval: false,
      };
    }
    if (completed === undefined) return { snapshot, stoppedBy: null, waitingForApproval: true };
    await options.onStep(completed);
    snapshot = completed.snapshot;
  }
}
