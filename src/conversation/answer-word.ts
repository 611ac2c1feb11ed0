import type { ApprovalAnswer } from './approval.js';

/** How a person answered an approval, in the word every view prints: `approved` or `rejected`. */
export type AnswerWord = 'approved' | 'rejected';

/**
 * The word of a person's answer (see {@link AnswerWord}): the one place a
 * view reads how the answer went, whatever field the stored answer keeps it in.
 */
export function answerWord(answer: ApprovalAnswer): AnswerWord {
  return answer.approved ? 'approved' : 'rejected';
}
