import type { AgentBuild } from '../agent/index.js';
import type { Remedy } from '../errors/index.js';
import { ForkpointError, RESUMABLE_ERROR_CODES } from '../errors/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { RunRecord } from '../store/index.js';
import type { World } from '../world/index.js';
import { requireSameAgent } from './agent-of-run.js';
import { requireDriven } from './require-driven.js';
import { requireSameWorld } from './world-of-run.js';
import type { EngineDeps } from '../driver/index.js';
import { guardedWorld, isOwnerAlive, ownerCheck } from '../driver/index.js';
import { readRunView, requireRun } from '../read/index.js';
import { continueInPlace } from './continue-in-place.js';
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

/** The modes whose runs commit every step as it happens, and so can go on from their last one. */
export const STREAMED_MODES: ReadonlySet<string> = new Set(['record', 'fork', 'reexecution']);

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
  const resumed = await continueInPlace(deps, {
    run,
    agent,
    after: run.status === 'running' ? 'interrupted' : (run.error?.code ?? run.status),
    sideEffects: policy,
    use: 'resume',
    live: () => guardedWorld(options.world, agent, policy, 'resume'),
  });
  return {
    ...(await readRunView(deps.store, run.runId, ownerCheck(deps), deps.prices)),
    resumed,
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
    case 'awaiting-approval':
      throw refuse(
        `it waits for a person's approval; answer it with \`forkpoint approve ${run.runId}\` (or --reject), which continues it`,
      );
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
