import type { AnsweredApproval, RunView, StepView } from '../../engine/index.js';
import type { StepCost } from '../../pricing/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';
import type { RunWords } from './run-words.js';
import { approvalSummary } from './approval-parts.js';
import { provenanceBadge, shortHash, usd } from './labels.js';

/** Steps on one page of a run's timeline: a run of 5,001 steps is read and drawn 200 at a time. */
export const TIMELINE_PAGE = 200;

/** The part of a run's timeline a page draws, and what opens under which row. */
export interface TimelineWindow {
  /** The first step drawn (from 1). */
  readonly from: number;
  /** The last step drawn. */
  readonly to: number;
  /** Each drawn step's element id. */
  readonly anchor: (step: number) => string;
  /** What opens under a step's row (its request, response and checkpoint), or null for none. */
  readonly detail: (step: StepView) => Html | null;
  /** The run's answered approvals, by step (see `answeredApprovalsOf`). */
  readonly approvals: ReadonlyMap<number, AnsweredApproval>;
}

/** The window of {@link TIMELINE_PAGE} steps that holds `step`, or starts at `from`. */
export function timelineWindow(
  stepCount: number,
  at: { readonly step?: number; readonly from?: number },
): {
  from: number;
  to: number;
} {
  const first =
    at.step !== undefined
      ? Math.floor((Math.max(1, at.step) - 1) / TIMELINE_PAGE) * TIMELINE_PAGE + 1
      : Math.max(1, at.from ?? 1);
  return { from: first, to: Math.min(stepCount, first + TIMELINE_PAGE - 1) };
}

/**
 * A run's steps as a table: `kind#index`, provenance by glyph, word and
 * colour, request hash, the step in one line, and a model step's tokens and
 * cost. Each step links to its opened form. An approval step reads as the
 * person's answer about its call (linked to the step that made it), and that
 * call says who approved it.
 */
export function runTimeline(run: RunView, window: TimelineWindow, links: PageLinks, words: RunWords): Html {
  const costs = new Map<number, StepCost>((run.cost?.steps ?? []).map((cost) => [cost.step, cost]));
  const approvedBy = new Map<number, AnsweredApproval>();
  for (const approval of window.approvals.values())
    if (approval.callStep !== null) approvedBy.set(approval.callStep, approval);
  const rows = run.steps
    .filter((step) => step.step >= window.from && step.step <= window.to)
    .map((step) =>
      stepRow(run, step, { cost: costs.get(step.step), approvedBy: approvedBy.get(step.step) }, window, links, words),
    );
  return html`<table class="timeline" aria-label="steps ${window.from} to ${window.to} of ${run.steps.length}">
    <thead><tr><th scope="col" class="num">step</th><th scope="col">call</th><th scope="col">from</th><th scope="col">request</th><th scope="col">what it said</th>
      <th scope="col" class="num">tokens in / out</th><th scope="col" class="num">USD</th></tr></thead>
    <tbody>${rows}</tbody>
  </table>`;
}

/** What a row says besides its step: a model step's cost, and the answer that let a call through. */
interface RowNotes {
  readonly cost: StepCost | undefined;
  readonly approvedBy: AnsweredApproval | undefined;
}

function stepRow(
  run: RunView,
  step: StepView,
  notes: RowNotes,
  window: TimelineWindow,
  links: PageLinks,
  words: RunWords,
): Html {
  const { cost, approvedBy } = notes;
  const href = links.run(run.runId, step.step);
  const call = html`<code>${step.kind}#${step.index}</code>`;
  const detail = window.detail(step);
  const approval = window.approvals.get(step.step);
  const said =
    approval === undefined
      ? words.step(run, step)
      : approvalSummary(approval, approval.callStep === null ? null : links.run(run.runId, approval.callStep));
  const approvalHref = approvedBy === undefined ? null : links.run(run.runId, approvedBy.step);
  const approvedNote =
    approvedBy === undefined
      ? null
      : html` <span class="muted approved-by">✋ approved at ${approvalHref === null ? `step ${approvedBy.step}` : html`<a href="${approvalHref}">step ${approvedBy.step}</a>`}</span>`;
  return html`<tr class="step-row" id="${window.anchor(step.step)}" data-step="${step.step}" tabindex="-1">
      <td class="num">${step.step}</td>
      <td>${href === null ? call : html`<a href="${href}">${call}</a>`}</td>
      <td>${provenanceBadge(step.provenance)}${step.attempt > 1 ? html` <span class="muted">attempt ${step.attempt}</span>` : null}${
        step.sideEffect ? html` <span class="side-effect">side effect, live</span>` : null
      }${approvedNote}</td>
      <td class="hash" title="${step.requestHash}">${shortHash(step.requestHash)}</td>
      <td class="summary">${said}</td>
      <td class="num">${cost === undefined ? '' : `${cost.tokens.input} / ${cost.tokens.output}`}</td>
      <td class="num">${cost === undefined ? '' : usd(cost.usd)}</td>
    </tr>${detail === null ? null : html`<tr class="detail-row"><td colspan="7">${detail}</td></tr>`}`;
}
