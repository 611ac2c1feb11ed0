import { ForkpointError, isForkpointError } from '../errors/index.js';
import { withFields } from '../json/index.js';
import type { RunFinish } from '../store/index.js';
import type { AgentSnapshot, DriveResult } from './drive-types.js';
import type { EngineDeps } from './engine-deps.js';
import type { RunEnding } from './run-ending.js';
import type { RunWriter } from './run-writer.js';

/**
 * Drives a run to its end and records how it ended, unless its last step
 * already did; a judged run is judged first, and stored as judged. A bug that escapes the drive still closes the run (as `failed`
 * with code `INTERNAL`) before it is rethrown, so no run is left looking alive.
 */
export async function finishRun(
  deps: Pick<EngineDeps, 'clock'>,
  writer: RunWriter,
  ending: RunEnding,
  drive: () => Promise<DriveResult>,
): Promise<DriveResult> {
  let driven: DriveResult;
  try {
    driven = await drive();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    try {
      // The step it died at is the one it was making: every step before it stays committed.
      const code = isForkpointError(error) ? error.code : 'INTERNAL';
      await writer.finish({
        status: 'failed',
        outcome: null,
        error: { code, message, step: writer.nextStep },
        finishedAt: deps.clock().toISOString(),
      });
    } catch {
      // The original error matters more than a failure to record it; the run reads back as interrupted.
    }
    throw isForkpointError(error) ? error : new ForkpointError('INTERNAL', message, { cause: error });
  }
  const { result, findings } = ending.kind === 'judged' ? ending.judge(driven) : { result: driven, findings: [] };
  if (!writer.hasFinished) await writer.finish(withFields(finishOf(result, deps.clock()), { findings }));
  return result;
}

function finishOf(result: DriveResult, now: Date): RunFinish {
  // Not an ending: the run stopped at rest, and its last checkpoint awaits a person's answer.
  if (result.waitingForApproval)
    return { status: 'awaiting-approval', outcome: null, error: null, finishedAt: now.toISOString() };
  if (result.stoppedBy === null) return finishOfFinalSnapshot(result.snapshot, now);
  const status = result.stoppedBy.error.code === 'REPLAY_DIVERGED' ? 'diverged' : 'failed';
  return { status, outcome: null, error: result.stoppedBy.failure, finishedAt: now.toISOString() };
}

/** How a run that reached `snapshot`, a final one, ended: with its outcome, or with the machine's error. */
export function finishOfFinalSnapshot(snapshot: AgentSnapshot, now: Date): RunFinish {
  const { context } = snapshot;
  const finishedAt = now.toISOString();
  if (snapshot.value === 'done') return { status: 'completed', outcome: context.outcome, error: null, finishedAt };
  return { status: 'failed', outcome: null, error: context.error, finishedAt };
}
