import type { AgentBuild } from '../agent/index.js';
import { RequestHasher } from '../cassette/index.js';
import type { ContinuedFrom } from '../checkpoint/index.js';
import { fitCheckpointToBuild, restoreCheckpoint } from '../checkpoint/index.js';
import type { CheckpointMigration } from '../vocabulary/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import type { ForkOverride } from '../fork/index.js';
import { parseForkOverride } from '../fork/index.js';
import type { NewRunRecord, RunRecord, RunResume } from '../store/index.js';
import type { Transport } from '../transports/index.js';
import type { AgentSnapshot, EngineDeps } from '../driver/index.js';
import {
  AT_FINAL_STEP,
  UNWATCHED,
  continuedFrom,
  executeRun,
  machineOf,
  newRunOwner,
  streamingSink,
} from '../driver/index.js';
import { usageTotalsOf } from '../pricing/index.js';
import { readStepViews, requireFullTier, stepShapesOf } from '../read/index.js';
import { prepareFork } from './fork-point.js';

/** How a stopped run goes on in its own run id: a resume, or a person's answer to the approval it waits on. */
export interface InPlaceContinuation {
  /** The run as the caller read it: it is taken over only if it is still exactly so. */
  readonly run: RunRecord;
  /** The run's own build. */
  readonly agent: AgentBuild;
  /** What the run was when it went on: `interrupted`, the code it stopped with, or `awaiting-approval`. */
  readonly after: string;
  /** The side-effect policy the new attempt runs under, as its resume record keeps it. */
  readonly sideEffects: SideEffectPolicy;
  /** What the caller does, for messages. */
  readonly use: 'resume' | 'approve a call of';
  /** The world the rest of the run meets, given the first step the new attempt makes. */
  readonly live: (fromStep: number) => Transport;
}

/**
 * Continues a stopped run from its last committed checkpoint, in the same
 * run id, as a new attempt: restores the checkpoint (never re-running a
 * step), takes the run over only if it is still as the caller read it (two
 * processes at once: one wins, the other gets `RESUME_REFUSED`), records the
 * resume, and drives the run to its end, or to its next stop. Returns the
 * resume it recorded.
 */
export async function continueInPlace(deps: EngineDeps, continuation: InPlaceContinuation): Promise<RunResume> {
  const { run, agent } = continuation;
  await requireFullTier(deps.store, run, deps.clock(), continuation.use);
  const restart = await restartOf(deps, run, agent);
  // The steps before the restart, read once: the new attempt's signature starts from their shapes, and a
  // run whose process died before it stored its tokens adds on to theirs.
  const before = await readStepViews(deps.store, run.runId, { known: run, through: restart.fromStep - 1 });
  const earlier = run.usage ?? usageTotalsOf(before.filter((step) => step.provenance !== 'inherited'));

  const owner = newRunOwner(deps);
  const resume: RunResume = {
    attempt: run.resumes.length + 2,
    fromStep: restart.fromStep,
    at: deps.clock().toISOString(),
    after: continuation.after,
    sideEffects: continuation.sideEffects,
    ...(restart.migration === null ? {} : { migration: restart.migration }),
  };
  await deps.store.resumeRun({
    runId: run.runId,
    expected: {
      status: run.status === 'running' || run.status === 'awaiting-approval' ? run.status : 'failed',
      ownerToken: run.owner?.token ?? null,
      leaseExpiresAt: run.owner?.leaseExpiresAt ?? null,
    },
    owner,
    resume,
  });

  const {
    status: _status,
    outcome: _outcome,
    error: _error,
    finishedAt: _finishedAt,
    stepCount: _stepCount,
    findings: _findings,
    purge: _purge,
    resumes: _resumes,
    usage: _usage,
    signature: _signature,
    ...kept
  } = run;
  // The run's own policy stays its first attempt's: the resume carries the one it runs under.
  const taken: NewRunRecord = { ...kept, owner };
  await executeRun(deps, {
    run: taken,
    agent,
    start: restart.start,
    hasher: restart.hasher,
    transport: restart.transport(continuation.live(restart.fromStep)),
    sink: streamingSink(deps.store, deps, { resumes: true }),
    origin: continuedFrom(restart.resumedFrom, stepShapesOf(before, agent.classifyObservation), earlier),
    ending: AT_FINAL_STEP,
    // Read back once it ends: the result is the whole run, its earlier attempts' steps and resumes included.
    watcher: UNWATCHED,
  });
  return resume;
}

/** Where a resumed run picks up: its state after its last committed step, and how the next step is answered. */
interface Restart {
  readonly fromStep: number;
  readonly start: AgentSnapshot;
  readonly hasher: RequestHasher;
  readonly resumedFrom: ContinuedFrom;
  /** What was done to the checkpoint so that the build could continue it; null when nothing was. */
  readonly migration: CheckpointMigration | null;
  transport(live: Transport): Transport;
}

async function restartOf(deps: EngineDeps, run: RunRecord, agent: AgentBuild): Promise<Restart> {
  // A fork that stopped before it committed its own step N starts again from its fork point, with its
  // stored override: the change it was making is part of the run, not of the resume.
  if (run.parent !== null && run.stepCount < run.parent.atStep) {
    const override: ForkOverride = parseForkOverride(run.parent.override);
    const point = await prepareFork(deps.store, run.parent.runId, run.parent.atStep, { override }, agent);
    return { fromStep: run.parent.atStep, ...point };
  }
  const last = run.stepCount;
  const ownFrom = run.parent?.atStep ?? 0;
  const { start, hasher, resumedFrom, migration } = await deps.store.read(async (reader) => {
    const restored = await restoreCheckpoint(reader, run.runId, last);
    const fitted = fitCheckpointToBuild(restored, agent, `checkpoint ${last} of run ${run.runId}`);
    const state = machineOf(agent).resolveState({ value: restored.value, context: fitted.context });
    const adopted = new RequestHasher();
    adopted.adopt(restored.context.messages, restored.messageDigests);
    // The run's own conversation segments cover its messages up to the first one read row by row; the
    // resumed attempt's next segment must start there.
    const unsegmented = (await reader.readMessages(run.runId, ownFrom, last)).digests.length;
    const messageCount = restored.context.messages.length;
    return {
      start: state,
      hasher: adopted,
      resumedFrom: { messageCount, segmentedUpTo: messageCount - unsegmented },
      migration: fitted.migration,
    };
  });
  if (start.status !== 'active') {
    throw new ForkpointError(
      'RESUME_REFUSED',
      `run ${run.runId} cannot be resumed: its last checkpoint (step ${last}) already ended the run`,
    );
  }
  return { fromStep: last + 1, start, hasher, resumedFrom, migration, transport: (live) => live };
}
