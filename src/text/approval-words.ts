import type { ApprovalAnswer } from '../conversation/index.js';
import { answerWord } from '../conversation/index.js';
import type { PendingApproval, RunRetention } from '../read/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import type { Style } from './style.js';

/** A call's request hash in a step line: enough to tell calls apart; `--call` takes the whole hash. */
const shortHash = (hash: string): string => `${hash.slice(0, 8)}…`;

// A name or note may hold what a terminal would obey (a fork's override is checked less than `approve`): escaped, as JSON does.
// eslint-disable-next-line no-control-regex -- the control characters are what this escapes
const CONTROL = /[\u0000-\u001f\u007f]/;
const printable = (text: string): string => (CONTROL.test(text) ? JSON.stringify(text).slice(1, -1) : text);

/**
 * A person's answer in one line, as a step of the run reads:
 * `approved refund#0 (request ea183fcc…) by dana@example.com: "checked the invoice"`.
 * `call` names the call it was about (`refund#0`), or its tool alone where
 * the step is read without the run around it. Without `hash`, the call's
 * request hash is left out (a narrow column, beside the same call's answer).
 */
export function answerWords(answer: ApprovalAnswer, call: string | undefined, hash = true): string {
  const note = answer.note === null ? '' : `: ${JSON.stringify(answer.note)}`;
  const request = hash ? ` (request ${shortHash(answer.requestHash)})` : '';
  return `${answerWord(answer)}${call === undefined ? '' : ` ${printable(call)}`}${request} by ${printable(answer.by)}${note}`;
}

/** The call a person is asked to approve: `refund#0`. */
export const pendingCallWords = (pending: PendingApproval): string => `${pending.tool}#${pending.callIndex}`;

/** What the lines after a waiting run's ending read of it. */
export interface WaitingRun {
  readonly runId: string;
  readonly status: RunStatus;
  readonly retention: RunRetention;
  readonly pendingApproval: PendingApproval | null;
}

/**
 * The lines after the ending of a run that waits for a person's approval:
 * the call, with its input and request hash, and the commands that answer
 * it. A waiting run whose full tier expired says the question went with it.
 * None for a run that waits for nothing.
 */
export function pendingApprovalLines(run: WaitingRun, style: Style): string[] {
  const pending = run.pendingApproval;
  if (pending === null) {
    if (run.status !== 'awaiting-approval') return [];
    const gone = run.retention.purge?.at ?? run.retention.expiresAt ?? 'its expiry';
    return [
      style.dim(
        `  the call is not shown: the run's full tier expired at ${gone}, and the question with it; it can no longer be answered`,
      ),
    ];
  }
  const answer = `forkpoint approve ${run.runId} --call ${pending.requestHash}`;
  return [
    `  the call: ${printable(pendingCallWords(pending))} ${JSON.stringify(pending.input)} (step ${pending.step}), request ${pending.requestHash}`,
    `  approve it: ${style.bold(answer)}`,
    `  reject it:  ${style.bold(`${answer} --reject --reason TEXT`)}`,
  ];
}
