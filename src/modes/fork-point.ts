import type { AgentBuild } from '../agent/index.js';
import type { CheckpointMigration, FieldChange } from '../vocabulary/index.js';
import { RequestHasher } from '../cassette/index.js';
import type { ContinuedFrom } from '../checkpoint/index.js';
import { fitCheckpointToBuild, lineageOf, restoreCheckpoint } from '../checkpoint/index.js';
import type { ModelResponse, ToolResponse } from '../conversation/index.js';
import { isModelResponse, isToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { ForkEdit, ForkOverride } from '../fork/index.js';
import type { AppliedOverride } from '../fork/index.js';
import { applyOverride, editOverride } from '../fork/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import { awaitingOf, nextSnapshot } from '../machine/index.js';
import type { StoreReader } from '../store/index.js';
import type { InjectedAnswer, Transport } from '../transports/index.js';
import { overrideTransport } from '../transports/index.js';
import type { AgentSnapshot } from '../driver/index.js';
import { readStepAt, requireRun } from '../read/index.js';
import type { StepView } from '../read/index.js';
import { machineOf } from '../driver/index.js';

/** Where a fork starts: the state before step N with its change ready, and how it answers step N. */
export interface ForkPoint {
  /** The state after step N-1, with a prompt or model change already applied. */
  readonly start: AgentSnapshot;
  readonly hasher: RequestHasher;
  readonly resumedFrom: ContinuedFrom;
  /** The override as the fork stores it: an edit recipe becomes the patch it made. */
  readonly override: ForkOverride;
  /** What the override changed at step N, field by field. */
  readonly changes: readonly FieldChange[];
  /** What was done to checkpoint N-1 so that the build could continue it; null when nothing was. */
  readonly migration: CheckpointMigration | null;
  /** The fork's transport over the world after the fork: step N's injected answer, if any, then `live`. */
  transport(live: Transport): Transport;
}

/** The change a fork makes at its step: an override (checked already), or an edit recipe. */
export type ForkChange = { readonly override: ForkOverride } | { readonly edit: ForkEdit<never> };

/**
 * Prepares a fork of `parentRunId` at step `atStep`: restores checkpoint N-1
 * from storage (never by re-running the prefix), checks that it awaits step
 * N's call, and works out what the change does there. Reads only; a change
 * that does not fit the step (`OVERRIDE_MISMATCH`) or changes nothing
 * (`OVERRIDE_INVALID`) is refused before anything is written.
 */
export function prepareFork(
  store: StoreReader,
  parentRunId: string,
  atStep: number,
  change: ForkChange,
  agent: AgentBuild,
): Promise<ForkPoint> {
  return store.read((reader) => forkPointOf(reader, parentRunId, atStep, change, agent));
}

async function forkPointOf(
  store: StoreReader,
  parentRunId: string,
  atStep: number,
  change: ForkChange,
  agent: AgentBuild,
): Promise<ForkPoint> {
  const parent = await requireRun(store, parentRunId);
  const outOfRange = () =>
    new ForkpointError(
      'STEP_OUT_OF_RANGE',
      `run ${parentRunId} has steps 1 to ${parent.stepCount}; there is no step ${atStep} to fork at`,
    );
  if (!Number.isInteger(atStep) || atStep < 1 || atStep > parent.stepCount) throw outOfRange();
  // Step N's row alone, not the run's every step: a fork deep in a long run costs about its restore.
  const lineage = await lineageOf(store, parentRunId, parent);
  const restored = await restoreCheckpoint(store, parentRunId, atStep - 1, lineage);
  const target = await readStepAt(store, lineage, atStep, restored.messageDigests);
  if (target === undefined) throw outOfRange();
  // Before anything runs: the checkpoint must be one this build can continue, as stored or migrated.
  const fitted = fitCheckpointToBuild(restored, agent, `checkpoint ${atStep - 1} of run ${parentRunId}`);
  const machine = machineOf(agent);
  let start = machine.resolveState({ value: restored.value, context: fitted.context });
  const awaiting = awaitingOf(start);
  if (awaiting?.kind !== target.kind || awaiting.index !== target.index) {
    throw new ForkpointError(
      'CHECKPOINT_INCOMPATIBLE',
      `checkpoint ${atStep - 1} of run ${parentRunId} does not await ${target.kind}#${target.index}; the run cannot be forked there`,
    );
  }
  const override =
    'override' in change
      ? change.override
      : editOverride(recordedValue(target), change.edit, target.kind === 'model' ? 'model' : 'tool');
  const applied = applyOverride(override, {
    runId: parentRunId,
    step: atStep,
    kind: target.kind,
    index: target.index,
    context: { system: restored.context.system, model: restored.context.model },
    recorded: recordedAnswer(parentRunId, target),
  });
  let answer: InjectedAnswer | undefined;
  if (applied.at === 'context') start = nextSnapshot(machine, start, { type: 'fork.overridden', ...applied.context });
  else answer = injectedAnswerOf(applied);
  const hasher = new RequestHasher();
  hasher.adopt(restored.context.messages, restored.messageDigests);
  return {
    start,
    hasher,
    resumedFrom: { messageCount: restored.context.messages.length },
    override,
    changes: applied.changes,
    migration: fitted.migration,
    transport: (live) => (answer === undefined ? live : overrideTransport({ step: atStep, answer, live })),
  };
}

// What the fork's transport answers step N with, for an override that changes its answer.
function injectedAnswerOf(applied: AppliedOverride & { at: 'tool' | 'model' | 'approval' }): InjectedAnswer {
  switch (applied.at) {
    case 'tool':
      return { type: 'tool', response: applied.response };
    case 'model':
      return { type: 'model', response: applied.response };
    case 'approval':
      return { type: 'approval', answer: applied.answer };
  }
}

// What an edit recipe's draft holds: a tool step's output, or a model step's whole response.
function recordedValue(target: StepView): JsonValue {
  if (target.kind === 'model') return target.response;
  return isJsonObject(target.response) ? (target.response.output ?? null) : null;
}

// Step N's recorded answer, in the shape its kind has: a row forkpoint did not write has no other.
function recordedAnswer(
  runId: string,
  target: StepView,
): { type: 'model'; response: ModelResponse } | { type: 'tool'; response: ToolResponse } {
  const { response } = target;
  if (target.kind === 'model' && isModelResponse(response)) return { type: 'model', response };
  if (target.kind !== 'model' && isToolResponse(response)) return { type: 'tool', response };
  throw new ForkpointError(
    'STORE_CORRUPT',
    `step ${target.step} of run ${runId} does not hold the ${target.kind === 'model' ? 'model response' : 'tool response'} forkpoint wrote: it was changed outside forkpoint`,
  );
}
