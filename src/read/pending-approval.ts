import { RequestHasher } from '../cassette/index.js';
import { restoreCheckpoint } from '../checkpoint/index.js';
import type { JsonObject } from '../json/index.js';
import { WRAPPED_LOOP_VERSION, awaitingOf } from '../machine/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import { fullTierExpired } from './expired-view.js';

/**
 * The question a run waits on: which call, exactly, a person is asked to
 * approve. Its `requestHash` is the call's, the one an answer must name.
 */
export type PendingApproval = {
  /** The step the answer will be. */
  readonly step: number;
  /** The approval's number among the run's approvals, from 0 (`approval#0`). */
  readonly index: number;
  /** The tool the model asked for, and the input it gave it. */
  readonly tool: string;
  readonly input: JsonObject;
  /** That tool's call number in the run, from 0: the call is `tool#callIndex` once made. */
  readonly callIndex: number;
  /** The call's request hash. */
  readonly requestHash: string;
};

/**
 * The approval a run's last checkpoint waits for, or `undefined` when it
 * waits for none (it runs, ended, or stopped elsewhere). Restores that one
 * checkpoint; never re-runs a step. The run's full tier must be there.
 */
export async function pendingApprovalOf(store: StoreReader, run: RunRecord): Promise<PendingApproval | undefined> {
  const restored = await restoreCheckpoint(store, run.runId, run.stepCount);
  const awaiting = awaitingOf(restored);
  if (awaiting?.type !== 'approval') return undefined;
  const { call } = awaiting;
  const { requestHash } = new RequestHasher().hashToolRequest({ tool: call.name, input: call.input });
  return {
    step: restored.context.step + 1,
    index: awaiting.index,
    tool: call.name,
    input: call.input,
    callIndex: restored.context.calls[call.name] ?? 0,
    requestHash,
  };
}

/**
 * The approval a read shows a run waiting for: its pending question when the
 * run, read as `status`, stopped at rest awaiting one (`awaiting-approval`,
 * or `interrupted` where its last checkpoint awaits one) and its full tier is
 * there at `now`. Null for every other run, and for one whose full tier has
 * expired: the question is a payload of that tier. Only these runs pay the
 * restore of their last checkpoint; a listing calls it for none.
 */
export async function waitingApprovalOf(
  store: StoreReader,
  run: RunRecord,
  status: RunStatus,
  now?: Date,
): Promise<PendingApproval | null> {
  if (status !== 'awaiting-approval' && status !== 'interrupted') return null;
  // A wrapped loop keeps no machine checkpoints to ask, and a structural record keeps shapes only.
  if (run.machineVersion === WRAPPED_LOOP_VERSION || run.tier === 'structural') return null;
  if (run.purge !== null || (now !== undefined && fullTierExpired(run, now))) return null;
  return (await pendingApprovalOf(store, run)) ?? null;
}
