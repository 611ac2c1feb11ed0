import type { ApprovalAnswer } from '../conversation/index.js';
import { APPROVAL_KIND, answerWord, approvalAnswerOf, approvalQuestionOf } from '../conversation/index.js';
import type { JsonObject } from '../json/index.js';
import type { StepView } from './run-view.js';

/**
 * An approval step read as what it is: a person's answer about one call,
 * and where that call stands in the run. A type, so it is plain JSON.
 */
export type AnsweredApproval = ApprovalAnswer & {
  /** The approval step itself. */
  readonly step: number;
  /** Its number among the run's approvals, from 0 (`approval#0`). */
  readonly index: number;
  /** The tool the model asked for, and the input it gave it. */
  readonly tool: string;
  readonly input: JsonObject;
  /** The call's number among the run's calls to that tool, from 0: the call is `tool#callIndex`. */
  readonly callIndex: number;
  /**
   * The step that made the call once it was approved; null where it was not
   * made (rejected, or the run stopped before it).
   */
  readonly callStep: number | null;
};

/** What {@link answeredApprovalsOf} reads of a step. */
export type ApprovalStepFacts = Pick<StepView, 'step' | 'kind' | 'requestHash' | 'index' | 'request' | 'response'>;

/**
 * The approval steps of a trajectory, by step number, each with the call it
 * answered: its number among the calls to its tool (the calls made before
 * it, since an approval comes before its call), and the step that made it,
 * found by the call's request hash. One pass over the steps; a step that
 * says it is an approval but holds no question and answer is left out.
 */
export function answeredApprovalsOf(steps: readonly ApprovalStepFacts[]): ReadonlyMap<number, AnsweredApproval> {
  const answered = new Map<number, AnsweredApproval>();
  const calls = new Map<string, number>();
  // Approved calls not yet made, by the call's request hash: the next step that makes it is the call.
  const awaited = new Map<string, number>();
  for (const step of steps) {
    if (step.kind !== APPROVAL_KIND) {
      calls.set(step.kind, (calls.get(step.kind) ?? 0) + 1);
      const approval = awaited.get(`${step.kind}:${step.requestHash}`);
      const found = approval === undefined ? undefined : answered.get(approval);
      if (found !== undefined) {
        answered.set(found.step, { ...found, callStep: step.step });
        awaited.delete(`${step.kind}:${step.requestHash}`);
      }
      continue;
    }
    const question = approvalQuestionOf(step.request);
    const answer = approvalAnswerOf(step.response);
    if (question === undefined || answer === undefined) continue;
    answered.set(step.step, {
      ...answer,
      step: step.step,
      index: step.index,
      tool: question.tool,
      input: question.input,
      callIndex: calls.get(question.tool) ?? 0,
      callStep: null,
    });
    if (answerWord(answer) === 'approved') awaited.set(`${question.tool}:${question.requestHash}`, step.step);
  }
  return answered;
}
