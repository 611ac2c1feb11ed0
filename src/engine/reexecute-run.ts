import type { AgentBuild } from '../agent/index.js';
import { RequestHasher } from '../cassette/index.js';
import { liveTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { EngineDeps } from './engine-deps.js';
import { requireFullTier, tierOfCopy } from './full-tier.js';
import { executeRun } from './execute-run.js';
import { newRunRecord } from './new-run-record.js';
import { readRunView, requireRun } from './read-run.js';
import { streamingSink } from './run-sink.js';
import type { ReexecutionResult } from './run-view.js';
import { startSnapshot } from './start-run.js';
import { newRunIdentity } from './validate-inputs.js';

/** What `reexecute` needs. */
export interface ReexecuteOptions {
  /** The run whose input is run again. */
  readonly sourceRunId: string;
  readonly agent: AgentBuild;
  /** The date of the world to run against. */
  readonly at: string;
  readonly world: (seed: number) => World;
  readonly seed?: number;
  readonly scenario?: string;
  readonly runId?: string;
}

/**
 * Runs a recorded run's input again against the live world at another date:
 * the model samples afresh and the tools read that day's world. It is a second
 * run, not a replay; its mode says so and every step is `live`.
 */
export async function reexecuteRun(deps: EngineDeps, options: ReexecuteOptions): Promise<ReexecutionResult> {
  const source = requireRun(deps.store, options.sourceRunId);
  // The input is a payload of the full tier: once that is gone, there is nothing to run again.
  requireFullTier(deps.store, source, deps.clock(), 're-execute');
  const { runId, seed } = newRunIdentity(deps, options);
  const { agent } = options;
  await executeRun(deps, {
    run: newRunRecord(deps, agent, {
      runId,
      mode: 'reexecution',
      scenario: options.scenario ?? source.scenario,
      input: source.input,
      worldAt: options.at,
      seed,
      sourceRunId: source.runId,
      tier: tierOfCopy(source),
      expiresNoLaterThan: source.expiresAt,
    }),
    agent,
    start: startSnapshot(agent, source.input, deps),
    hasher: new RequestHasher(),
    transport: liveTransport(options.world(seed)),
    sink: streamingSink(deps.store),
  });
  return readRunView(deps.store, runId, deps.isProcessAlive) as ReexecutionResult;
}
