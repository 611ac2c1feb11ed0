import type { AgentBuild } from '../agent/index.js';
import { RequestHasher } from '../cassette/index.js';
import { restoreCheckpoint } from '../checkpoint/index.js';
import type { Remedy } from '../errors/index.js';
import { ForkpointError, RESUMABLE_ERROR_CODES } from '../errors/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { ForkOverride } from '../fork/index.js';
import { parseForkOverride } from '../fork/index.js';
import type { NewRunRecord, RunRecord, RunResume } from '../store/index.js';
import type { Transport } from '../transports/index.js';
import type { World } from '../world/index.js';
import { requireSameAgent } from './agent-of-run.js';
import { requireDriven } from './require-driven.js';
import { requireSameWorld } from './world-of-run.js';
import type { AgentSnapshot, EngineDeps } from '../driver/index.js';
import type { ContinuedFrom } from '../checkpoint/index.js';
import {
  AT_FINAL_STEP,
  UNWATCHED,
  continuedFrom,
  executeRun,
  guardedWorld,
  isOwnerAlive,
  newRunOwner,
  ownerCheck,
  streamingSink,
  machineOf,
} from '../driver/index.js';
import { prepareFork } from './fork-point.js';
import { requireFullTier, readRunView, readStepViews, requireRun, stepShapesOf } from '../read/index.js';
import { usageTotalsOf } from '../pricing/index.js';
import type { ResumeResult } from './mode-results.js';

/** What `resume` needs. */
export interface ResumeOptions {
  /** The interrupted or stopped run, continued in place. */
  readonly runId: string;
  /** The run's own build: a resume continues its code (another build is a fork). */
  readonly agent: AgentBuild;
  /**
   * The live world the rest of the run meets. A world that says its date or
   * seed must say the run's: one run meets one world.
   */
  readonly world: World;
  /**
   * What the resumed attempt does with calls to tools that are not read-only
   * (default `refuse`; see `ForkOptions`). The call the run was making when it
   * stopped may have reached the real system already: nothing is re-fired
   * unless asked by name.
   */
  readonly sideEffects?: SideEffectOption;
}

const STREAMED_MODES: ReadonlySet<string> = new Set(['record', 'fork', 'reexecution']);

/**
 * Continues an interrupted run (its owner's lease lapsed, or its process is
 * gone) or one stopped by the world or the firewall (`PROVIDER_FAILED`,
 * `TOOL_FAILED`, `SIDE_EFFECT_BLOCKED`) from its last committed checkpoint,
 * against the live world behind the side-effect firewall, in the same run id.
 * The run records the resume (attempt, step, time, why, firewall), and each
 * step reads back with the attempt that wrote it. A run that completed or
 * failed in the agent's own code is refused (`RESUME_REFUSED`): resuming it
 * would hide a real outcome. Two processes resuming at once: one wins.
 */
export async function resumeRun(deps: EngineDeps, options: ResumeOptions): Promise<ResumeResult> {
  const run = await requireRun(deps.store, options.runId);
  requireDriven(run, 'resume');
  const { agent } = options;
  requireResumable(deps, run);
  requireSameWorld(run, options.world);
  requireSameAgent(run, agent, 'resume');
  if (run.build !== agent.build || run.codeHash !== agent.codeHash) {
    throw new ForkpointError(
      'RESUME_REFUSED',
      `run ${run.runId} ran build ${run.build} (code ${run.codeHash}); build ${agent.build} (code ${agent.codeHash}) would continue it with other code. A resume continues the same code: to continue under another build, fork the run`,
    );
  }
  const policy = resolveSideEffectPolicy(options.sideEffects, agent.tools);
  await requireFullTier(deps.store, run, deps.clock(), 'resume');
  const continuation = await continuationOf(deps, run, agent);
  // The steps before the restart, read once: the resumed attempt's signature starts from their shapes, and a
  // run whose process died before it stored its tokens adds on to theirs.
  const before = await readStepViews(deps.store, run.runId, { known: run, through: continuation.fromStep - 1 });
  const earlier = run.usage ?? usageTotalsOf(before.filter((step) => step.provenance !== 'inherited'));

  const owner = newRunOwner(deps);
  const resume: RunResume = {
    attempt: run.resumes.length + 2,
    fromStep: continuation.fromStep,
    at: deps.clock().toISOString(),
    after: run.status === 'running' ? 'interrupted' : (run.error?.code ?? run.status),
    sideEffects: policy,
  };
  await deps.store.resumeRun({
    runId: run.runId,
    expected: {
      status: run.status === 'running' ? 'running' : 'failed',
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
    ...kept
  } = run;
  // The run's own policy stays its first attempt's: the resume carries the one it runs under.
  const taken: NewRunRecord = { ...kept, owner };
  await executeRun(deps, {
    run: taken,
    agent,
    start: continuation.start,
    hasher: continuation.hasher,
    transport: continuation.transport(guardedWorld(options.world, agent, policy, 'resume')),
    sink: streamingSink(deps.store, deps, { resumes: true }),
    origin: continuedFrom(continuation.resumedFrom, stepShapesOf(before, agent.classifyObservation), earlier),
    ending: AT_FINAL_STEP,
    // Read back once it ends: the result is the whole run, its earlier attempts' steps and resumes included.
    watcher: UNWATCHED,
  });
  return {
    ...(await readRunView(deps.store, run.runId, ownerCheck(deps), deps.prices)),
    resumed: resume,
  } as ResumeResult;
}

function requireResumable(deps: EngineDeps, run: RunRecord): void {
  const refuse = (why: string, remedy?: Remedy) =>
    new ForkpointError('RESUME_REFUSED', `run ${run.runId} cannot be resumed: ${why}`, {
      details: { runId: run.runId, ...(remedy === undefined ? {} : { remedy }) },
    });
  if (!STREAMED_MODES.has(run.mode))
    throw refuse(`it is a ${run.mode} run, written whole when it ended; run it again instead`);
  switch (run.status) {
    case 'completed':
      throw refuse(`it completed (${JSON.stringify(run.outcome)}); resuming it would hide that outcome`);
    case 'diverged':
      throw refuse('it diverged from its recording; a divergence is its outcome');
    case 'interrupted':
    case 'running':
      if (run.owner !== null && isOwnerAlive(deps, run.owner)) {
        const until =
          run.owner.leaseExpiresAt === null
            ? ''
            : `, its lease renewed until ${new Date(run.owner.leaseExpiresAt).toISOString()}`;
        throw refuse(
          `it is still running in process ${run.owner.pid}${run.owner.host === null ? '' : ` on ${run.owner.host}`}${until}`,
        );
      }
      return;
    case 'failed':
      if (run.error !== null && RESUMABLE_ERROR_CODES.has(run.error.code)) return;
      throw refuse(
        `it failed in the agent's own code (${run.error?.code ?? 'failed'} at step ${run.error?.step ?? '?'}), and resuming it would hide that outcome`,
        { kind: 'fork-instead', runId: run.runId },
      );
  }
}

/** Where a resumed run picks up: its state after its last committed step, and how the next step is answered. */
interface Continuation {
  readonly fromStep: number;
  readonly start: AgentSnapshot;
  readonly hasher: RequestHasher;
  readonly resumedFrom: ContinuedFrom;
  transport(live: Transport): Transport;
}

async function continuationOf(deps: EngineDeps, run: RunRecord, agent: AgentBuild): Promise<Continuation> {
  // A fork that stopped before it committed its own step N starts again from its fork point, with its
  // stored override: the change it was making is part of the run, not of the resume.
  if (run.parent !== null && run.stepCount < run.parent.atStep) {
    const override: ForkOverride = parseForkOverride(run.parent.override);
    const point = await prepareFork(deps.store, run.parent.runId, run.parent.atStep, { override }, agent);
    return { fromStep: run.parent.atStep, ...point };
  }
  const last = run.stepCount;
  const ownFrom = run.parent?.atStep ?? 0;
  const { start, hasher, resumedFrom } = await deps.store.read(async (reader) => {
    const restored = await restoreCheckpoint(reader, run.runId, last);
    const state = machineOf(agent).resolveState({ value: restored.value, context: restored.context });
    const adopted = new RequestHasher();
    adopted.adopt(restored.context.messages, restored.messageDigests);
    // The run's own conversation segments cover its messages up to the first one read row by row; the
    // resumed attempt's next segment must start there.
    const unsegmented = (await reader.readMessages(run.runId, ownFrom, last)).digests.length;
    const messageCount = restored.context.messages.length;
    return { start: state, hasher: adopted, resumedFrom: { messageCount, segmentedUpTo: messageCount - unsegmented } };
  });
  if (start.status !== 'active') {
    throw new ForkpointError(
      'RESUME_REFUSED',
      `run ${run.runId} cannot be resumed: its last checkpoint (step ${last}) already ended the run`,
    );
  }
  return { fromStep: last + 1, start, hasher, resumedFrom, transport: (live) => live };
}
