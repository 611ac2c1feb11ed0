import type { AnswerWord, ApprovalAnswer } from '../conversation/index.js';
import { APPROVAL_KIND, answerWord, approvalAnswerOf, approvalQuestionOf } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { stableJson, isJsonArray, isJsonObject } from '../json/index.js';
import type { RunCost } from '../pricing/index.js';
import type { RunErrorRecord } from '../store/index.js';
import type { FieldChange } from '../vocabulary/index.js';
import type { CostComparison } from './compare-costs.js';
import { diffJson } from './diff-json.js';
import { compareCosts } from './compare-costs.js';
import type { RunMode } from '../vocabulary/index.js';
import type { RunStatus } from '../vocabulary/index.js';

/** What a comparison reads of a step (a `StepView` has it). */
export interface ComparableStep {
  readonly kind: string;
  readonly index: number;
  readonly requestHash: string;
  readonly provenance: string;
  /** True when the step called a side-effecting tool for real past a recording. */
  readonly sideEffect?: boolean;
  /** The canonical request, when the caller has it: a step whose requests differ shows the fields that did. */
  readonly request?: JsonValue;
  readonly response: JsonValue;
}

/**
 * An approval step's answer, as what it is: what a person decided about
 * which call (its tool, and its request hash), by whom and why. A type, so it
 * is plain JSON.
 */
export type ComparedApproval = ApprovalAnswer & {
  /** The tool of the call, from the step's request; null where the caller gave no request. */
  readonly tool: string | null;
};

/** One side of a compared step. */
export interface ComparedSide {
  readonly kind: string;
  readonly index: number;
  readonly requestHash: string;
  readonly provenance: string;
  /** True when the step called a side-effecting tool for real past a recording. */
  readonly sideEffect: boolean;
  readonly summary: string;
  /** On an approval step, the person's answer; absent on every other step. */
  readonly approval?: ComparedApproval;
}

/** A step of two runs, side by side; a side is null where that run has no such step. */
export interface ComparedStep {
  readonly step: number;
  readonly a: ComparedSide | null;
  readonly b: ComparedSide | null;
  readonly same: boolean;
  /**
   * Where a step differs, field by field, a's value before b's: the request's
   * fields (where both runs' requests were given and their hashes differ) and
   * the observation's (the response without per-call ids and token counts).
   * Empty where the step is the same, or one run has no such step.
   */
  readonly changes: { readonly request: readonly FieldChange[]; readonly response: readonly FieldChange[] };
}

/** Where two runs first part: the step, its call, and whether the request or only the response differed. */
export interface FirstDivergence {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly on: 'request' | 'response';
  /**
   * Where the runs first part at a person's answer (either side's step is an
   * approval), each side's decision (null where that side has no answer
   * there): `approved -> rejected` is a person who said otherwise, not a
   * tool that answered otherwise. Absent where they part elsewhere.
   */
  readonly approval?: { readonly a: AnswerWord | null; readonly b: AnswerWord | null };
}

/** What a run is for a comparison: its identity and how it ended. */
export interface ComparedRun {
  readonly runId: string;
  readonly mode: RunMode;
  readonly status: RunStatus;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
  readonly steps: readonly ComparableStep[];
  /** What its model steps cost (a `RunView` has it); a comparison without it compares no cost. */
  readonly cost?: RunCost | null;
}

/** Two runs compared. */
export interface RunComparison {
  readonly a: Omit<ComparedRun, 'steps'>;
  readonly b: Omit<ComparedRun, 'steps'>;
  readonly firstDivergence: FirstDivergence | null;
  readonly steps: readonly ComparedStep[];
  /** The cost of each branch in US dollars, and b's minus a's; null unless both runs carry a cost. */
  readonly cost: CostComparison | null;
}

/**
 * Compares two runs step by step. Requests are compared by hash (which
 * already ignores provider-minted ids); responses by content, with the
 * provider's ids, signatures and token counts left out, so that two live
 * answers that say the same thing count as the same.
 */
export function compareRuns(
  a: ComparedRun,
  b: ComparedRun,
  summarize: (step: ComparableStep) => string,
): RunComparison {
  const steps: ComparedStep[] = [];
  let firstDivergence: FirstDivergence | null = null;
  for (let i = 0; i < Math.max(a.steps.length, b.steps.length); i++) {
    const left = a.steps[i];
    const right = b.steps[i];
    const sameRequest =
      left !== undefined &&
      right !== undefined &&
      left.kind === right.kind &&
      left.index === right.index &&
      left.requestHash === right.requestHash;
    const same = sameRequest && comparable(left.response) === comparable(right.response);
    // One side at least has step i + 1: the loop runs to the longer run's end.
    const where = left ?? right;
    if (!same && firstDivergence === null && where !== undefined) {
      const answers = [answerAt(left), answerAt(right)] as const;
      firstDivergence = {
        step: i + 1,
        kind: where.kind,
        index: where.index,
        on: sameRequest ? 'response' : 'request',
        ...(answers[0] === undefined && answers[1] === undefined
          ? {}
          : { approval: { a: wordOf(answers[0]), b: wordOf(answers[1]) } }),
      };
    }
    steps.push({
      step: i + 1,
      a: side(left, summarize),
      b: side(right, summarize),
      same,
      changes: changesOf(left, right),
    });
  }
  const strip = ({ steps: _steps, ...rest }: ComparedRun) => rest;
  return { a: strip(a), b: strip(b), firstDivergence, steps, cost: compareCosts(a.cost, b.cost) };
}

const NO_CHANGES: ComparedStep['changes'] = { request: [], response: [] };

function changesOf(left: ComparableStep | undefined, right: ComparableStep | undefined): ComparedStep['changes'] {
  if (left === undefined || right === undefined) return NO_CHANGES;
  const request =
    left.requestHash === right.requestHash || left.request === undefined || right.request === undefined
      ? []
      : diffJson(left.request, right.request);
  const response =
    comparable(left.response) === comparable(right.response)
      ? []
      : diffJson(observationOf(left.response), observationOf(right.response));
  return request.length === 0 && response.length === 0 ? NO_CHANGES : { request, response };
}

function side(step: ComparableStep | undefined, summarize: (step: ComparableStep) => string): ComparedSide | null {
  if (step === undefined) return null;
  const answer = answerAt(step);
  return {
    kind: step.kind,
    index: step.index,
    requestHash: step.requestHash,
    provenance: step.provenance,
    sideEffect: step.sideEffect === true,
    summary: summarize(step),
    ...(answer === undefined ? {} : { approval: { ...answer, tool: approvalQuestionOf(step.request)?.tool ?? null } }),
  };
}

const wordOf = (answer: ApprovalAnswer | undefined): AnswerWord | null =>
  answer === undefined ? null : answerWord(answer);

// The person's answer an approval step holds; undefined on any other step.
const answerAt = (step: ComparableStep | undefined): ApprovalAnswer | undefined =>
  step?.kind === APPROVAL_KIND ? approvalAnswerOf(step.response) : undefined;

/**
 * The part of a response that is the observation: a model response's content
 * and stop reason without the provider's per-call ids, signatures and token
 * counts; anything else as it is.
 */
export function observationOf(response: JsonValue): JsonValue {
  if (!isJsonObject(response) || !isJsonArray(response.content)) return response;
  const content = response.content.map((part) => {
    if (!isJsonObject(part)) return part;
    const { id: _id, signature: _signature, ...rest } = part;
    return rest;
  });
  return { content, stopReason: response.stopReason ?? null };
}

const comparable = (response: JsonValue): string => stableJson(observationOf(response));
