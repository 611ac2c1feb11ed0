import { isForkpointError } from '../errors/index.js';
import { awaitingOf } from '../machine/index.js';
import type { CompletedStep, DriveOptions, DriveResult } from './drive-types.js';
import { askApproval, callTool, observeModel } from './observe-step.js';

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
