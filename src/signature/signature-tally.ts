import type { ModelResponse } from '../conversation/index.js';
import type { ErrorCode } from '../errors/index.js';
import { sha256Hex, stableJson } from '../json/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import { collapseRepeats } from './collapse-repeats.js';
import type { Observation, ObservationClassifier } from '../agent/index.js';
import type { FailureSignature, ModelShape, StepShape, ToolShape, TrajectoryPart } from './signature.js';
import { SIGNATURE_VERSION } from './signature.js';
import { typeSkeleton } from './type-skeleton.js';

/** How a run ended, as far as its signature needs it. */
export interface SignedEnding {
  readonly status: Exclude<RunStatus, 'running' | 'interrupted' | 'awaiting-approval'>;
  readonly error: { readonly code: ErrorCode; readonly step: number } | null;
}

/** The shape a signature keeps of a model step: the tools asked for (as a set), or why it stopped. */
export function modelShapeOf(response: ModelResponse): ModelShape {
  const asks = response.content.flatMap((part) => (part.type === 'tool_use' ? [part.name] : []));
  return { kind: 'model', asks: asks.sort(), stop: response.stopReason };
}

/**
 * The shape a signature keeps of a tool step. A classifier that throws is a
 * bug in the build's code, which must not lose the run its ending: the step
 * is labelled `classifier-failed` instead.
 */
export function toolShapeOf(observation: Observation, classify?: ObservationClassifier): ToolShape {
  let label: string | null;
  try {
    label = classify?.(observation) ?? null;
  } catch {
    label = 'classifier-failed';
  }
  return {
    kind: 'tool',
    tool: observation.tool,
    output: sha256Hex(typeSkeleton(observation.output), 12),
    isError: observation.isError,
    label,
  };
}

/**
 * Gathers a run's step shapes as its steps commit, and makes its
 * {@link FailureSignature} when it ends: nothing is read back. A run that
 * continues from a checkpoint (a fork, a resume) starts from the shapes of
 * the steps before it.
 */
export class SignatureTally {
  private readonly steps: StepShape[];

  constructor(
    earlier: readonly StepShape[] = [],
    private readonly classify?: ObservationClassifier,
  ) {
    this.steps = [...earlier];
  }

  /** Adds a model step. */
  model(response: ModelResponse): void {
    this.steps.push(modelShapeOf(response));
  }

  /** Adds a tool step, labelled by the build's classifier. */
  tool(observation: Observation): void {
    this.steps.push(toolShapeOf(observation, this.classify));
  }

  /** The signature of the run, ended as `ending`, over the steps added so far. */
  signatureOf(ending: SignedEnding): FailureSignature {
    return signatureOf(this.steps, ending);
  }
}

/** The signature of a trajectory of step shapes (steps 1..n, in order) ended as `ending`. */
export function signatureOf(steps: readonly StepShape[], ending: SignedEnding): FailureSignature {
  const trajectory = collapseRepeats(steps);
  const signed = {
    version: SIGNATURE_VERSION,
    trajectory,
    ending: {
      status: ending.status,
      code: ending.error?.code ?? null,
      at: ending.error === null ? null : failingStepOf(steps, ending.error.step),
    },
    lead: leadOf(trajectory),
  };
  return { ...signed, digest: sha256Hex(stableJson(signed), 16) };
}

// The step an error belongs to, or, when it names the step that was never made, the one that would have come.
function failingStepOf(steps: readonly StepShape[], step: number): string | null {
  const made = steps[step - 1];
  if (made !== undefined) return made.kind === 'model' ? 'model' : made.tool;
  if (step !== steps.length + 1) return null;
  const pending: string[] = [];
  for (const shape of steps) {
    if (shape.kind === 'model') pending.splice(0, pending.length, ...shape.asks);
    else pending.shift();
  }
  return pending[0] ?? 'model';
}

function leadOf(trajectory: readonly TrajectoryPart[]): number | null {
  const toolsOf = (part: TrajectoryPart): ToolShape[] =>
    part.kind === 'repeat' ? part.steps.flatMap(toolsOf) : part.kind === 'tool' ? [part] : [];
  const labelled = trajectory.findLastIndex((part) => toolsOf(part).some((step) => step.label !== null));
  if (labelled >= 0) return labelled;
  const last = trajectory.findLastIndex((part) => toolsOf(part).length > 0);
  return last >= 0 ? last : null;
}
