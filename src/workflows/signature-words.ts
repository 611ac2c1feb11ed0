import { APPROVAL_KIND } from '../conversation/index.js';
import type { FailureSignature, StepShape, ToolShape, TrajectoryPart } from '../signature/index.js';
import type { GroupCounts } from './signature-classes.js';

const toolWord = (step: StepShape): string | undefined =>
  step.kind === 'tool'
    ? `${step.tool}${step.isError ? '!' : ''}${step.label === null ? '' : ` [${step.label}]`}`
    : step.asks.length === 0 && step.stop !== 'end_turn' && step.stop !== 'tool_use'
      ? `model:${step.stop}`
      : undefined;

const approvalIn = (part: TrajectoryPart | undefined): ToolShape | undefined =>
  part?.kind === 'tool' && part.tool === APPROVAL_KIND ? part : undefined;

/**
 * The call an approval step answered, read from the steps around it (a
 * signature keeps no payload, so not from the answer): the asks of the model
 * turn before it not yet made, narrowed to the next call made when it was
 * approved, or to the asks never made in that turn when it was rejected.
 * Undefined where that leaves no single tool.
 */
function approvedTool(parts: readonly TrajectoryPart[], at: number, pending: readonly string[]): string | undefined {
  const later: string[] = [];
  for (const part of parts.slice(at + 1)) {
    if (part.kind !== 'tool') break;
    if (approvalIn(part) === undefined) later.push(part.tool);
  }
  const candidates =
    approvalIn(parts[at])?.isError === true
      ? pending.filter((tool) => !later.includes(tool))
      : later.slice(0, 1).filter((tool) => pending.length === 0 || pending.includes(tool));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * The words of a run of parts, in order, each top-level part its own list: a
 * tool step as its tool, a person's answer as what it was about and how it
 * went (`approval(refund) ✓`, `✗` for a rejection), never as a tool named
 * `approval`.
 */
function partsWords(parts: readonly TrajectoryPart[]): string[][] {
  let pending: string[] = [];
  return parts.map((part, at) => {
    if (part.kind === 'repeat') {
      const inside = partsWords(part.steps).flat();
      pending = [];
      return [`(${inside.length === 0 ? 'model' : inside.join(' → ')})+`];
    }
    if (part.kind === 'model') pending = [...part.asks];
    const approval = approvalIn(part);
    if (approval !== undefined) {
      const tool = approvedTool(parts, at, pending);
      // A rejected call is never made: its ask is answered by the rejection.
      if (approval.isError && tool !== undefined) pending.splice(pending.indexOf(tool), 1);
      return [`approval${tool === undefined ? '' : `(${tool})`} ${approval.isError ? '✗' : '✓'}`];
    }
    if (part.kind === 'tool' && pending.includes(part.tool)) pending.splice(pending.indexOf(part.tool), 1);
    const word = toolWord(part);
    return word === undefined ? [] : [word];
  });
}

/**
 * A signature's trajectory in words: its tool steps in order (the model turns
 * between them are implied), an error marked `!`, a build's label in
 * brackets, a repeated block in `( )+`, a person's answer as `approval(refund) ✓`
 * or `✗`.
 *
 * @example 'fetch_claim → ocr_document [ocr-confidence<0.5] → estimate_repair → fetch_policy'
 */
export function trajectoryWords(signature: FailureSignature): string {
  return partsWords(signature.trajectory).flat().join(' → ') || '(no tool step)';
}

/** How a signature's run ended, in words: `completed`, or `failed VALIDATION_FAILED at model`. */
export function endingWords(signature: FailureSignature): string {
  const { status, code, at } = signature.ending;
  return [status, code, at === null ? null : `at ${at}`].filter((word) => word !== null).join(' ');
}

/** The observation that led to the ending, in words, or null when the run made no tool step. */
export function leadWords(signature: FailureSignature): string | null {
  const words = signature.lead === null ? undefined : partsWords(signature.trajectory)[signature.lead];
  if (words === undefined) return null;
  return words.join(' → ');
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
