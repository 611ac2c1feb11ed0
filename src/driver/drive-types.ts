import type { SnapshotFrom } from 'xstate';
import type { AgentBuild } from '../agent/index.js';
import type { RequestHasher } from '../cassette/index.js';
import type { ForkpointError } from '../errors/index.js';
import type { AgentMachine, RunFailure } from '../machine/index.js';
import type { Transport } from '../transports/index.js';
import type { CompletedStepOf } from './completed-step.js';

// The drive's shapes live apart from the loop so that the observers the loop
// calls (observe-step.ts) can name them without importing the loop itself.

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
