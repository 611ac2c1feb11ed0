import type { FailureSignature, StepShape, TrajectoryPart } from '../signature/index.js';

const toolWord = (step: StepShape): string | undefined =>
  step.kind === 'tool'
    ? `${step.tool}${step.isError ? '!' : ''}${step.label === null ? '' : ` [${step.label}]`}`
    : step.asks.length === 0 && step.stop !== 'end_turn' && step.stop !== 'tool_use'
      ? `model:${step.stop}`
      : undefined;

const partWords = (part: TrajectoryPart): string[] => {
  if (part.kind !== 'repeat') {
    const word = toolWord(part);
    return word === undefined ? [] : [word];
  }
  const inside = part.steps.flatMap((step) => toolWord(step) ?? []);
  return [`(${inside.length === 0 ? 'model' : inside.join(' → ')})+`];
};

/**
 * A signature's trajectory in words: its tool steps in order (the model turns
 * between them are implied), an error marked `!`, a build's label in
 * brackets, a repeated block in `( )+`.
 *
 * @example 'fetch_claim → ocr_document [ocr-confidence<0.5] → estimate_repair → fetch_policy'
 */
export function trajectoryWords(signature: FailureSignature): string {
  return signature.trajectory.flatMap(partWords).join(' → ') || '(no tool step)';
}

/** How a signature's run ended, in words: `completed`, or `failed VALIDATION_FAILED at model`. */
export function endingWords(signature: FailureSignature): string {
  const { status, code, at } = signature.ending;
  return [status, code, at === null ? null : `at ${at}`].filter((word) => word !== null).join(' ');
}

/** The observation that led to the ending, in words, or null when the run made no tool step. */
export function leadWords(signature: FailureSignature): string | null {
  const part = signature.lead === null ? undefined : signature.trajectory[signature.lead];
  if (part === undefined) return null;
  return partWords(part).join(' → ');
}
