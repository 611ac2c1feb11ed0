import type { FailureSignature, StepShape, TrajectoryPart } from '../signature/index.js';
import type { GroupCounts } from './signature-classes.js';

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
  const inside = part.steps.flatMap(partWords);
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

/** A share of the period's runs as `classes` prints it: one decimal under 10%. */
export const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

/** The period a count is over, in words: `since 2026-03-01`, or `in the store`. */
export const sinceWords = (since: string | null): string =>
  since === null ? 'in the store' : `since ${since.slice(0, 10)}`;

/** Counts by a key, largest first: `baseline 12 · patched 2`. */
export const countsWords = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([key, count]) => `${key} ${count}`)
    .join(' · ');

/** A group's days as a range: `2026-03-01..2026-03-04 (4 days)`. */
export function daysWords(counts: GroupCounts): string {
  const days = Object.keys(counts.byDay).sort();
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return 'no day';
  return first === last ? first : `${first}..${last} (${days.length} days)`;
}
