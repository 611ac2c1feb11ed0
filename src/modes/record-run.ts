import type { AgentBuild } from '../agent/index.js';
import { RequestHasher } from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { assertJsonValue, isJsonObject } from '../json/index.js';
import { liveTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { EngineDeps } from '../driver/index.js';
import {
  newRunOwner,
  ownerCheck,
  executeRun,
  newRunRecord,
  streamingSink,
  AT_FINAL_STEP,
  FROM_INPUT,
  startSnapshot,
  newRunIdentity,
} from '../driver/index.js';
import { requireRun, summarizeRun, waitingApprovalOf, withSteps } from '../read/index.js';
import { NO_PRICES } from '../pricing/index.js';
import type { CapturePolicy } from '../retention/index.js';
import { applyCapturePolicy } from '../retention/index.js';
import type { RunSummary, StepView } from '../read/index.js';
import { stepCollector } from './step-collector.js';
import { startedRunRecord } from '../store/index.js';
import type { RecordResult } from './mode-results.js';

/** What `record` needs. */
export interface RecordOptions {
  readonly agent: AgentBuild;
  /** The live world; what it says of itself (its date, its seed) is stored with the run. */
  readonly world: World;
  readonly input: JsonObject;
  /** Where the agent came from (a scenario directory), stored with the run. */
  readonly scenario?: string;
  /** Default: minted by the engine. */
  readonly runId?: string;
  /** `synthetic` for a run of a hand-written synthetic case, which never expires; default `full`. */
  readonly tier?: 'full' | 'synthetic';
  /** Which runs keep their full tier once they end; default: every run. */
  readonly capture?: CapturePolicy;
  /** Told once the run exists, before its first step: a long or stuck run can be watched from the start. */
  readonly onStarted?: (run: RunSummary) => void;
  /** Told of every step as soon as it is committed. */
  readonly onStep?: (step: StepView) => void;
}

/**
 * Records a run against the live world: every step and the checkpoint after
 * it are committed as they happen, so a killed process leaves every completed
 * step readable. Expected failures (a validation error, a step cap, a
 * provider refusing a request) are part of the result, not thrown.
 */
export async function recordRun(deps: EngineDeps, options: RecordOptions): Promise<RecordResult> {
  const { runId, worldAt, seed, mintRunId } = newRunIdentity(deps, options);
  assertJsonValue(options.input, 'the run input');
  if (!isJsonObject(options.input)) throw new ForkpointError('INPUT_INVALID', 'the run input must be a JSON object');
  const { agent } = options;

  const run = await newRunRecord(deps, agent, {
    runId,
    mode: 'record',
    scenario: options.scenario ?? null,
    input: options.input,
    worldAt,
    seed,
    tier: options.tier ?? 'full',
    owner: newRunOwner(deps),
  });
  const sink = streamingSink(deps.store, deps, { mintRunId });
  const { onStarted, onStep } = options;
  // The steps as they were committed, so that the result is not read back from the store; announced once
  // the run exists, under the id it was stored with (a taken minted id is replaced).
  const collected = stepCollector({
    ...(onStarted === undefined
      ? {}
      : {
          onStarted: (id: string) => {
            // A run that has just started has used no tokens yet: nothing to price.
            onStarted(summarizeRun(startedRunRecord({ ...run, runId: id }), ownerCheck(deps), NO_PRICES));
          },
        }),
    ...(onStep === undefined ? {} : { onStep }),
  });
  const { stored } = await executeRun(deps, {
    run,
    agent,
    start: startSnapshot(agent, options.input, deps),
    hasher: new RequestHasher(),
    // The original run: it meets the world as it is, side effects included. Every later mode is firewalled.
    transport: liveTransport(options.world),
    sink,
    origin: FROM_INPUT,
    ending: AT_FINAL_STEP,
    watcher: collected.watcher,
  });
  const prices = await deps.prices(stored.scenario);
  const summary = summarizeRun(stored, ownerCheck(deps), prices);
  const pending = await waitingApprovalOf(deps.store, stored, summary.status);
  const recorded = withSteps(summary, collected.steps, prices, pending) as RecordResult;
  if (options.capture === undefined) return recorded;
  const capture = await applyCapturePolicy(
    deps.store,
    await requireRun(deps.store, stored.runId),
    recorded.steps,
    options.capture,
    deps.clock(),
  );
  // The caller watched the run happen: its steps are returned even when the policy kept only its shape.
  return {
    ...recorded,
    retention: summarizeRun(await requireRun(deps.store, stored.runId), ownerCheck(deps), prices).retention,
    capture,
  };
}
