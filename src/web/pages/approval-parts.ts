import type { ComparedApproval } from '../../analysis/index.js';
import type { AnswerWord } from '../../conversation/index.js';
import { answerWord } from '../../conversation/index.js';
import type { AnsweredApproval, RunView } from '../../engine/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { jsonTree } from './json-tree.js';

// The decision by glyph and word, beside its colour: the colour is never the only sign.
const DECISION_GLYPH: Readonly<Record<AnswerWord, string>> = { approved: '✓', rejected: '✗' };

/** A person's decision as a mark: `✓ approved`, `✗ rejected`. */
export function decisionMark(decision: AnswerWord): Html {
  return html`<span class="decision decision-${decision}" data-decision="${decision}"
    ><span aria-hidden="true">${DECISION_GLYPH[decision]}</span> ${decision}</span
  >`;
}

const noteOf = (note: string | null): Html | null => (note === null ? null : html`: <q class="note">${note}</q>`);

/**
 * An approval step in a timeline row: the decision, the call it was about
 * (linked to the step that made it, where it was made), who answered and
 * why. A person's answer, not a tool's output.
 */
export function approvalSummary(approval: AnsweredApproval, callHref: string | null): Html {
  const call = html`<code>${approval.tool}#${approval.callIndex}</code>`;
  return html`<span class="answer" data-approval="${approval.step}">${decisionMark(answerWord(approval))}
    ${callHref === null ? call : html`<a data-call-step="${approval.callStep ?? ''}" href="${callHref}">${call}</a>`}
    by <span class="reviewer">${approval.by}</span>${noteOf(approval.note)}</span>`;
}

/** A compared side's approval step, in the compare page's words: the decision, the tool, who and why. */
export function comparedAnswer(approval: ComparedApproval): Html {
  return html`<span class="answer">${decisionMark(answerWord(approval))} ${approval.tool === null ? null : html`<code>${approval.tool}</code>`}
    by <span class="reviewer">${approval.by}</span>${noteOf(approval.note)}</span>`;
}

/**
 * An opened approval step: the person's answer (decision, who, when, why)
 * and the call it is bound to: the tool and its number, the input the model
 * gave it, the call's request hash, and the step that made it (linked), or
 * that it was never made.
 */
export function approvalAnswer(approval: AnsweredApproval, callHref: string | null): Html {
  const call = html`<code>${approval.tool}#${approval.callIndex}</code>`;
  const made =
    approval.callStep === null
      ? html`<span class="muted">${answerWord(approval) === 'rejected' ? 'never made: the rejection stands as its result' : 'not made in this run'}</span>`
      : callHref === null
        ? html`made at step ${approval.callStep}`
        : html`made at <a data-call-step="${approval.callStep}" href="${callHref}">step ${approval.callStep}</a>`;
  return html`<section class="panel answer-detail" aria-label="the person's answer">
    <h4>✋ a person's answer</h4>
    <dl class="facts">
      <dt>decision</dt><dd>${decisionMark(answerWord(approval))}</dd>
      <dt>by</dt><dd class="reviewer">${approval.by}</dd>
      <dt>at</dt><dd>${approval.at}</dd>
      <dt>note</dt><dd>${approval.note === null ? html`<span class="muted">none given</span>` : html`<q class="note">${approval.note}</q>`}</dd>
      <dt>the call</dt><dd>${call} · ${made}</dd>
      <dt>its request</dt><dd><code title="${approval.requestHash}">${approval.requestHash}</code></dd>
      <dt>its input</dt><dd>${jsonTree(approval.input, { openDepth: 1 })}</dd>
    </dl>
  </section>`;
}

/**
 * The panel of a run that waits for a person's approval: the call, its
 * input and request hash, and the commands that answer it. The view only
 * reads: it shows the commands, it answers nothing. A waiting run whose full
 * tier expired says the question went with it.
 */
export function waitingPanel(run: Pick<RunView, 'runId' | 'status' | 'pendingApproval' | 'retention'>): Html | null {
  const pending = run.pendingApproval;
  if (pending === null) {
    if (run.status !== 'awaiting-approval') return null;
    const gone = run.retention.purge?.at ?? run.retention.expiresAt ?? 'its expiry';
    return html`<section class="panel waiting" aria-label="waiting for approval">
      <h2>✋ waiting for approval</h2>
      <p class="expired">The call it waits for is not shown: the run's full tier expired at ${gone}, and the question with it. It can no longer be answered.</p>
    </section>`;
  }
  const answer = `forkpoint approve ${run.runId} --call ${pending.requestHash}`;
  const interrupted =
    run.status === 'interrupted'
      ? html`<p class="muted">Its process stopped before it recorded that it waits; the answer lets it go on all the same.</p>`
      : null;
  return html`<section class="panel waiting" aria-label="waiting for approval" data-request-hash="${pending.requestHash}">
    <h2>✋ waiting for approval</h2>
    <p>The run stopped at rest after step ${pending.step - 1}: its model asked for <code>${pending.tool}#${pending.callIndex}</code>, which needs a person's approval before it is made. The answer will be step ${pending.step}.</p>
    ${interrupted}
    <dl class="facts">
      <dt>the call</dt><dd><code>${pending.tool}#${pending.callIndex}</code></dd>
      <dt>its request</dt><dd><code>${pending.requestHash}</code> <span class="muted">an answer names it, and applies to this call only</span></dd>
      <dt>its input</dt><dd>${jsonTree(pending.input, { openDepth: 2 })}</dd>
    </dl>
    <p>This view only reads. Answer from a terminal:</p>
    <p>approve: <code class="command">${answer}</code></p>
    <p>reject: <code class="command">${answer} --reject --reason TEXT</code></p>
  </section>`;
}
