import type { JsonObject, JsonValue } from '../json/index.js';
import { stableJson } from '../json/index.js';
import type { ComparableStep, ComparedRun, FirstDivergence } from './compare-runs.js';
import { compareRuns, observationOf } from './compare-runs.js';
import type { FieldChange } from '../vocabulary/index.js';
import { diffJson } from './diff-json.js';
import type { DigestedMessage } from './request-with-messages.js';
import { holdsMessageDigests, requestWithMessages } from './request-with-messages.js';
import { maskVolatile, volatileKindsBetween } from './volatile-spans.js';

/**
 * Where a re-execution first left its recording, by cause:
 * - `tool-response`: same request, the tool answered differently (the world moved);
 * - `model-response`: same request, the model answered differently (sampling);
 * - `approval`: the same call put to a person, answered otherwise (another
 *   verdict, reviewer, time or note);
 * - `volatile-request`: the request differs only in bytes the build puts there
 *   afresh on every call (a timestamp, a request id);
 * - `code`: the request differs because the build's code changed;
 * - `simulated`: same request, a side-effecting tool's simulator answered
 *   where the recording holds the real system's answer;
 * - `blocked`: the side-effect firewall stopped the re-execution while it
 *   still followed the recording, so where it would have left is unknown;
 * - `awaiting-approval`: the re-execution stopped at rest before a call that
 *   needs a person's approval, nobody has answered it yet, and up to there it
 *   followed the recording;
 * - `none`: the re-execution followed the recording to the end.
 */
export type DivergenceSource =
  | 'tool-response'
  | 'model-response'
  | 'approval'
  | 'volatile-request'
  | 'code'
  | 'simulated'
  | 'blocked'
  | 'awaiting-approval'
  | 'none';

/** Every source, in the order the report's table lists them. */
export const DIVERGENCE_SOURCES: readonly DivergenceSource[] = [
  'tool-response',
  'model-response',
  'approval',
  'volatile-request',
  'code',
  'simulated',
  'blocked',
  'awaiting-approval',
  'none',
];

/** What each source means, in a few words: the last column of the report's table, in the CLI and the web view alike. */
export const DIVERGENCE_MEANINGS: Readonly<Record<DivergenceSource, string>> = {
  'tool-response': 'same request; a tool answered differently (the world moved)',
  'model-response': 'same request; the model answered differently (sampling)',
  approval: 'same call put to a person; answered otherwise',
  'volatile-request': 'the request differs only in per-call bytes (a timestamp, an id)',
  code: "the request differs: the build's code changed",
  simulated: "same request; a side-effecting tool's simulator answered, not the world",
  blocked: 'stopped by the side-effect firewall while still on the recording',
  'awaiting-approval': "waiting for a person's approval while still on the recording",
  none: 'followed the recording to the end',
};

/**
 * True for the sources of a re-execution that stopped while it still followed
 * its recording (the firewall, a person not yet asked): nothing differed yet,
 * so a report says why it stopped instead of what changed.
 */
export function stoppedOnRecording(source: DivergenceSource): boolean {
  return source === 'blocked' || source === 'awaiting-approval';
}

/** What the classifier reads of a step: a `StepView` has it. */
export interface SourcedStep extends ComparableStep {
  /** The canonical request; a model request may hold its messages as digests. */
  readonly request: JsonValue;
}

/** One side of the comparison: a run's steps, the code hash of the build that ran them, and its messages. */
export interface DivergenceSide {
  readonly codeHash: string;
  readonly steps: readonly SourcedStep[];
  /** The run's messages by digest (a cassette's `messages`), so that model requests are diffed in full. */
  readonly messages?: readonly DigestedMessage[];
}

/** A first divergence and its source. Position fields are null for `none`. */
export interface SourcedDivergence {
  readonly source: DivergenceSource;
  readonly step: number | null;
  readonly kind: string | null;
  readonly index: number | null;
  /** `ocr_document#0`. */
  readonly call: string | null;
  /** Whether the request differed, or only the response. */
  readonly on: 'request' | 'response' | null;
  /** Why this source, in a few words. */
  readonly reason: string;
  /** The fields that differ, recorded against re-executed; a few at most. */
  readonly diff: readonly FieldChange[];
}

const DIFF_LIMIT = 6;

/**
 * Finds the first step where a re-execution left its recording and says why.
 * Steps are compared as `compareRuns` compares them (requests by hash,
 * responses without provider-minted ids, signatures and token counts), so the
 * report and `forkpoint compare` never disagree on where two runs part.
 *
 * A request that differs is `volatile-request` when every differing span is a
 * volatile one (timestamps, UUIDs, hex or base62 tokens, epoch milliseconds),
 * or when both builds have the same code hash: the same code over the same
 * observations asks the same thing, unless the injected clock or randomness
 * went into the request. Otherwise it is `code`.
 */
export function classifyDivergence(recorded: DivergenceSide, reexecuted: DivergenceSide): SourcedDivergence {
  const first = compareRuns(asComparedRun(recorded), asComparedRun(reexecuted), () => '').firstDivergence;
  if (first === null) {
    return {
      source: 'none',
      step: null,
      kind: null,
      index: null,
      call: null,
      on: null,
      reason: 'followed the recording to the end',
      diff: [],
    };
  }
  const where = {
    step: first.step,
    kind: first.kind,
    index: first.index,
    call: `${first.kind}#${first.index}`,
    on: first.on,
  };
  const before = recorded.steps[first.step - 1];
  const after = reexecuted.steps[first.step - 1];

  // compareRuns says `response` only where both runs made the same request.
  if (first.on === 'response' && before !== undefined && after !== undefined) {
    const diff = diffJson(observationOf(before.response), observationOf(after.response), DIFF_LIMIT);
    if (first.approval !== undefined)
      return { ...where, source: 'approval', reason: approvalReason(first.approval), diff };
    return first.kind === 'model'
      ? { ...where, source: 'model-response', reason: 'same request; the model answered differently', diff }
      : { ...where, source: 'tool-response', reason: `same request; ${first.kind} answered differently`, diff };
  }

  const requestBefore = before === undefined ? undefined : requestWithMessages(before.request, recorded.messages);
  const requestAfter = after === undefined ? undefined : requestWithMessages(after.request, reexecuted.messages);
  const sameCall =
    before !== undefined && after !== undefined && before.kind === after.kind && before.index === after.index;
  const diff = sameCall ? diffJson(requestBefore, requestAfter, DIFF_LIMIT) : [callChange(before, after)];

  if (
    sameCall &&
    requestBefore !== undefined &&
    requestAfter !== undefined &&
    differsOnlyInVolatileSpans(requestBefore, requestAfter)
  ) {
    const kinds = volatileKindsBetween(requestBefore, requestAfter);
    return {
      ...where,
      source: 'volatile-request',
      reason: `only volatile bytes differ (${kinds.join(', ') || 'volatile spans'})`,
      diff,
    };
  }
  if (recorded.codeHash === reexecuted.codeHash) {
    return {
      ...where,
      source: 'volatile-request',
      reason: `same code (${recorded.codeHash}) over the same observations: only the injected clock or randomness can change the request`,
      diff,
    };
  }
  return {
    ...where,
    source: 'code',
    reason: `the request changed and the code hash differs (${recorded.codeHash} -> ${reexecuted.codeHash})`,
    diff,
  };
}

// A person's answer is no tool's: it says who answered, and what, on each side.
function approvalReason(words: NonNullable<FirstDivergence['approval']>): string {
  return words.a === words.b
    ? `the same call put to a person, ${words.a ?? 'unanswered'} on both sides, by another reviewer, at another time or with another note`
    : `the same call put to a person: ${words.a ?? 'unanswered'} in the recording, ${words.b ?? 'unanswered'} in the re-execution`;
}

function asComparedRun(side: DivergenceSide): ComparedRun {
  // compareRuns only reads the steps; the rest of a run's identity does not decide where two runs part.
  return { runId: '', mode: 'reexecution', status: 'completed', outcome: null, error: null, steps: side.steps };
}

function callChange(before: SourcedStep | undefined, after: SourcedStep | undefined): FieldChange {
  const call = (step: SourcedStep | undefined) => (step === undefined ? '(absent)' : `${step.kind}#${step.index}`);
  return { path: '(call)', before: call(before), after: call(after) };
}

function differsOnlyInVolatileSpans(before: JsonValue, after: JsonValue): boolean {
  return stableJson(before) !== stableJson(after) && maskedText(before) === maskedText(after);
}

function maskedText(request: JsonValue): string {
  if (!holdsMessageDigests(request)) return stableJson(maskVolatile(request));
  // Digests stand for message bytes that are not here to judge: they are compared as they are, never
  // masked, so that a changed message is not taken for a volatile hex token.
  const { messages, ...rest } = request as JsonObject;
  return stableJson({ messages: messages ?? null, rest: maskVolatile(rest) });
}
