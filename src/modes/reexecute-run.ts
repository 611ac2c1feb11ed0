import type { AgentBuild } from '../agent/index.js';
import { RequestHasher } from '../cassette/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { World } from '../world/index.js';
import type { EngineDeps } from '../driver/index.js';
import {
  newRunOwner,
  ownerCheck,
  guardedWorld,
  executeRun,
  newRunRecord,
  AT_FINAL_STEP,
  FROM_INPUT,
  streamingSink,
  startSnapshot,
  newRunIdentity,
} from '../driver/index.js';
import { requireSameAgent } from './agent-of-run.js';
import { requireDriven } from './require-driven.js';
import { requireFullTier, tierOfCopy, requireRun, summarizeRun, waitingApprovalOf, withSteps } from '../read/index.js';
import { stepCollector } from './step-collector.js';
import type { ReexecutionResult } from './mode-results.js';

/** What `reexecute` needs. */
export interface ReexecuteOptions {
  /** The run whose input is run again. */
  readonly sourceRunId: string;
  readonly agent: AgentBuild;
  /** The live world to run against; what it says of itself (its date, its seed) is stored with the run. */
  readonly world: World;
  readonly scenario?: string;
  readonly runId?: string;
  /** What the re-execution does with calls to tools that are not read-only (default `refuse`; see `ForkOptions`). */
  readonly sideEffects?: SideEffectOption;
}

/**
 * Runs a recorded run's input again against a live world (today's, or a
 * simulated one of another day): the model samples afresh and the tools answer as that world does, behind the
 * side-effect firewall. It is a second run, not a replay; its mode says so
 * and every step is `live` (or `simulated`).
 */
export async function reexecuteRun(deps: EngineDeps, options: ReexecuteOptions): Promise<ReexecutionResult> {
  const source = await requireRun(deps.store, options.sourceRunId);
  requireDriven(source, 're-execute');
  requireSameAgent(source, options.agent, 're-execute');
  const policy = resolveSideEffectPolicy(options.sideEffects, options.agent.tools);
  // The input is a payload of the full tier: once that is gone, there is nothing to run again.
  await requireFullTier(deps.store, source, deps.clock(), 're-execute');
  const { runId, worldAt, seed, mintRunId } = newRunIdentity(deps, options);
  const { agent } = options;
  const collected = stepCollector();
  const { stored } = await executeRun(deps, {
    run: await newRunRecord(deps, agent, {
      runId,
      mode: 'reexecution',
      scenario: options.scenario ?? source.scenario,
      input: source.input,
      worldAt,
      seed,
      sourceRunId: source.runId,
      tier: tierOfCopy(source),
      expiresNoLaterThan: source.expiresAt,
      owner: newRunOwner(deps),
      sideEffects: policy,
    }),
    agent,
    start: startSnapshot(agent, source.input, deps),
    hasher: new RequestHasher(),
    transport: guardedWorld(options.world, agent, policy, 'reexecution'),
    sink: streamingSink(deps.store, deps, { mintRunId }),
    origin: FROM_INPUT,
    ending: AT_FINAL_STEP,
    watcher: collected.watcher,
  });
  // The steps as they were committed, so that the result is not read back from the store.
  const prices = await deps.prices(stored.scenario);
  const summary = summarizeRun(stored, ownerCheck(deps), prices);
  const pending = await waitingApprovalOf(deps.store, stored, summary.status);
  return withSteps(summary, collected.steps, prices, pending) as ReexecutionResult;
}
