import { transition } from 'xstate';
import type { AgentBuild } from '../agent/index.js';
import { RequestHasher } from '../cassette/index.js';
import type { ForkOverride } from '../checkpoint/index.js';
import { contextOverrideOf, restoreCheckpoint } from '../checkpoint/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { applyMergePatch, assertJsonValue, isJsonObject } from '../json/index.js';
import { awaitingOf } from '../machine/index.js';
import type { Transport } from '../transports/index.js';
import { liveTransport, overrideTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { EngineDeps } from './engine-deps.js';
import { executeRun } from './execute-run.js';
import { newRunRecord } from './new-run-record.js';
import { readRunView, readStepViews, requireRun } from './read-run.js';
import { streamingSink } from './run-sink.js';
import type { ForkResult, StepView } from './run-view.js';
import { machineOf } from './start-run.js';
import { newRunIdentity } from './validate-inputs.js';
import { requireFullTier, tierOfCopy } from './full-tier.js';

/** What `fork` needs. */
export interface ForkOptions {
  readonly parentRunId: string;
  /** The step that is changed; the fork restores the checkpoint after the step before it. */
  readonly atStep: number;
  readonly override: ForkOverride;
  /** The build that continues the run (its hooks judge step N onwards). */
  readonly agent: AgentBuild;
  /** The live world after the fork. */
  readonly world: (seed: number) => World;
  /** The world's date after the fork; default the parent's. */
  readonly at?: string;
  readonly seed?: number;
  readonly scenario?: string;
  readonly runId?: string;
}

/**
 * Forks a run: restores the checkpoint after step N-1 from storage (never by
 * re-running the prefix), changes one thing at step N, and continues live.
 * The fork stores only its own tail; the parent is never modified, and steps
 * 1..N-1 read back as `inherited`.
 */
export async function forkRun(deps: EngineDeps, options: ForkOptions): Promise<ForkResult> {
  const parent = requireRun(deps.store, options.parentRunId);
  requireFullTier(deps.store, parent, deps.clock(), 'fork');
  const { runId, seed } = newRunIdentity(deps, options);
  const steps = readStepViews(deps.store, parent.runId);
  const target = stepToOverride(parent.runId, steps, options.atStep, options.override);

  const { agent } = options;
  const machine = machineOf(agent);
  const restored = restoreCheckpoint(deps.store, parent.runId, options.atStep - 1);
  let start = machine.resolveState({ value: restored.value, context: restored.context });
  const awaiting = awaitingOf(start);
  if (awaiting?.kind !== target.kind || awaiting.index !== target.index) {
    throw new ForkpointError(
      'CHECKPOINT_INCOMPATIBLE',
      `checkpoint ${options.atStep - 1} of run ${parent.runId} does not await ${target.kind}#${target.index}; the run cannot be forked there`,
    );
  }
  const hasher = new RequestHasher();
  hasher.adopt(restored.context.messages, restored.messageDigests);

  const live = liveTransport(options.world(seed));
  let transport: Transport = live;
  const contextChange = contextOverrideOf(options.override);
  if (contextChange !== undefined) {
    [start] = transition(machine, start, { type: 'fork.overridden', ...contextChange });
  } else {
    const output = overriddenOutput(options.override, target);
    transport = overrideTransport({ step: options.atStep, response: { output, isError: false }, live });
  }

  await executeRun(deps, {
    run: newRunRecord(deps, agent, {
      runId,
      mode: 'fork',
      scenario: options.scenario ?? parent.scenario,
      input: parent.input,
      worldAt: options.at ?? parent.worldAt,
      seed,
      parent: { runId: parent.runId, atStep: options.atStep, override: options.override as unknown as JsonValue },
      // The fork's rows read the parent's: it cannot outlive them.
      tier: tierOfCopy(parent),
      expiresNoLaterThan: parent.expiresAt,
    }),
    agent,
    start,
    hasher,
    transport,
    sink: streamingSink(deps.store),
    resumedFrom: { messageCount: restored.context.messages.length },
  });
  return readRunView(deps.store, runId, deps.isProcessAlive) as ForkResult;
}

/** Checks that step N exists and has the kind the override needs. */
function stepToOverride(parentRunId: string, steps: readonly StepView[], atStep: number, override: ForkOverride): StepView {
  const target = Number.isInteger(atStep) ? steps[atStep - 1] : undefined;
  if (target === undefined) {
    throw new ForkpointError('STEP_OUT_OF_RANGE', `run ${parentRunId} has steps 1 to ${steps.length}; there is no step ${atStep} to fork at`);
  }
  const wantsTool = override.kind === 'tool-result' || override.kind === 'tool-merge';
  if (wantsTool && target.kind === 'model') {
    throw new ForkpointError(
      'OVERRIDE_MISMATCH',
      `step ${atStep} of run ${parentRunId} is a model step (model#${target.index}); a tool override needs a tool step. Use --system-prompt or --model here, or pick a tool step`,
    );
  }
  if (!wantsTool && target.kind !== 'model') {
    throw new ForkpointError(
      'OVERRIDE_MISMATCH',
      `step ${atStep} of run ${parentRunId} is a tool step (${target.kind}#${target.index}); a prompt or model override needs a model step. Use --tool-result or --tool-merge here`,
    );
  }
  return target;
}

function overriddenOutput(override: ForkOverride, target: StepView): JsonValue {
  const recorded = isJsonObject(target.response) ? target.response.output : undefined;
  const output = override.kind === 'tool-merge' ? applyMergePatch(recorded, override.patch) : override.kind === 'tool-result' ? override.output : null;
  assertJsonValue(output, 'the overridden tool result', 'USAGE');
  return output;
}
