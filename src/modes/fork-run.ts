import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { ForkEdit, ForkOverride } from '../fork/index.js';
import { parseForkOverride } from '../fork/index.js';
import type { JsonObject } from '../json/index.js';
import type { World } from '../world/index.js';
import { requireSameAgent } from './agent-of-run.js';
import { requireDriven } from './require-driven.js';
import type { EngineDeps } from '../driver/index.js';
import {
  executeRun,
  guardedWorld,
  newRunRecord,
  newRunOwner,
  ownerCheck,
  AT_FINAL_STEP,
  continuedFrom,
  streamingSink,
  newRunIdentity,
} from '../driver/index.js';
import { conversationShapes } from '../signature/index.js';
import type { ForkChange } from './fork-point.js';
import { prepareFork } from './fork-point.js';
import { requireFullTier, tierOfCopy, requireRun, summarizeRun, waitingApprovalOf } from '../read/index.js';
import { stepCollector } from './step-collector.js';
import { partsLeftOutChange } from './parts-left-out.js';
import type { ForkResult } from './mode-results.js';

/** What `fork` needs besides its change. */
interface ForkBase {
  readonly parentRunId: string;
  /** The step that is changed; the fork restores the checkpoint after the step before it. */
  readonly atStep: number;
  /** The build that continues the run (its hooks judge step N onwards); a build of the parent's agent. */
  readonly agent: AgentBuild;
  /** The live world after the fork; what it says of itself (its date, its seed) is stored with the fork. */
  readonly world: World;
  readonly scenario?: string;
  readonly runId?: string;
  /**
   * What the fork does with calls to tools that are not read-only: `refuse`
   * (the default: the run stops there with `SIDE_EFFECT_BLOCKED`), `simulate`
   * (the tool's simulator answers) or `live`, for every tool or by name.
   */
  readonly sideEffects?: SideEffectOption;
}

/**
 * What `fork` needs: the change at step N is an override (checked at run
 * time against its schema), or an edit recipe over step N's recorded value,
 * stored as the patch it made. `T` types the recipe's draft.
 */
export type ForkOptions<T = JsonObject> = ForkBase &
  (
    | { readonly override: ForkOverride; readonly edit?: undefined }
    | { readonly edit: ForkEdit<T>; readonly override?: undefined }
  );

/**
 * Forks a run: restores the checkpoint after step N-1 from storage (never by
 * re-running the prefix), changes one thing at step N, and continues live
 * behind the side-effect firewall. Every check (override, agent, step, firewall
 * policy) is made before a row is written. The fork stores only its own tail;
 * the parent is never modified, and steps 1..N-1 read back as `inherited`.
 */
export async function forkRun<T>(deps: EngineDeps, options: ForkOptions<T>): Promise<ForkResult> {
  const change = changeOf(options);
  const parent = await requireRun(deps.store, options.parentRunId);
  requireDriven(parent, 'fork');
  const { agent } = options;
  requireSameAgent(parent, agent, 'fork');
  const policy = resolveSideEffectPolicy(options.sideEffects, agent.tools);
  await requireFullTier(deps.store, parent, deps.clock(), 'fork');
  const { runId, worldAt, seed, mintRunId } = newRunIdentity(deps, options);
  const point = await prepareFork(deps.store, parent.runId, options.atStep, change, agent);
  // A change of model may move the run to a provider that cannot take all of its prefix: the fork says what.
  const changes =
    point.override.kind === 'model'
      ? [...point.changes, ...partsLeftOutChange(options.world.model, agent, point.start)]
      : point.changes;

  const collected = stepCollector();
  const { stored } = await executeRun(deps, {
    run: await newRunRecord(deps, agent, {
      runId,
      mode: 'fork',
      scenario: options.scenario ?? parent.scenario,
      input: parent.input,
      worldAt,
      seed,
      parent: {
        runId: parent.runId,
        atStep: options.atStep,
        override: point.override,
        changes,
        ...(point.migration === null ? {} : { migration: point.migration }),
      },
      owner: newRunOwner(deps),
      sideEffects: policy,
      // The fork's rows read the parent's: it cannot outlive them.
      tier: tierOfCopy(parent),
      expiresNoLaterThan: parent.expiresAt,
    }),
    agent,
    start: point.start,
    hasher: point.hasher,
    transport: point.transport(guardedWorld(options.world, agent, policy, 'fork')),
    sink: streamingSink(deps.store, deps, { mintRunId }),
    origin: continuedFrom(
      point.resumedFrom,
      conversationShapes(point.start.context.messages, agent.classifyObservation),
    ),
    ending: AT_FINAL_STEP,
    watcher: collected.watcher,
  });
  const prices = await deps.prices(stored.scenario);
  const summary = summarizeRun(stored, ownerCheck(deps), prices);
  const pendingApproval = await waitingApprovalOf(deps.store, stored, summary.status);
  return { ...summary, ownSteps: collected.steps, pendingApproval } as ForkResult;
}

// Exactly one change, checked at run time: JavaScript callers can pass both, or neither.
function changeOf<T>(options: ForkOptions<T>): ForkChange {
  const hasOverride = options.override !== undefined;
  const hasEdit = options.edit !== undefined;
  if (hasOverride === hasEdit) {
    throw new ForkpointError(
      'OVERRIDE_INVALID',
      `a fork changes exactly one thing: give either override or edit, ${hasOverride ? 'not both' : 'got neither'}`,
    );
  }
  if (hasEdit) {
    if (typeof options.edit !== 'function')
      throw new ForkpointError(
        'OVERRIDE_INVALID',
        "edit must be a function that changes a draft of step N's recorded value",
      );
    return { edit: options.edit };
  }
  return { override: parseForkOverride(options.override) };
}
