import type { AnswerWord } from '../../conversation/index.js';
import type { ComparedSide, ComparedStep, RunComparison } from '../../analysis/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';
import type { RunWords } from './run-words.js';
import { fieldChanges } from './field-changes.js';
import { modeLabel, provenanceBadge, shortHash, statusBadge, usd } from './labels.js';
import { comparedAnswer, decisionMark } from './approval-parts.js';

/** What the compare page draws: `compare --json`, and the scenario whose words summarize it. */
export interface ComparePageData {
  readonly comparison: RunComparison;
  readonly scenario: string | null;
}

/**
 * Two runs side by side, aligned by step: where they first part (marked in
 * words and by a bar, and scrolled to), each differing step's fields, and how
 * each ended and what each cost.
 */
export function comparePage(data: ComparePageData, links: PageLinks, words: RunWords): Html {
  const { comparison } = data;
  const { a, b, firstDivergence } = comparison;
  const runRef = (side: 'a' | 'b', run: RunComparison['a']): Html => {
    const href = links.run(run.runId);
    const id = html`<code>${run.runId}</code>`;
    return html`<span data-side="${side}">${side}: ${href === null ? id : html`<a href="${href}">${id}</a>`} ${modeLabel(run.mode)}</span>`;
  };
  const verdict =
    firstDivergence === null
      ? html`<p class="verdict">= no divergence: the runs observed the same things through ${comparison.steps.length} steps</p>`
      : html`<p class="verdict"><span class="divergence-mark">◆ first divergence</span> at
          <a href="#cmp-step-${firstDivergence.step}">step ${firstDivergence.step}</a>,
          <code>${firstDivergence.kind}#${firstDivergence.index}</code>, ${
            firstDivergence.approval === undefined
              ? `on the ${firstDivergence.on}`
              : html`<span data-approval-divergence>a person answered otherwise: ${answerOrNone(firstDivergence.approval.a)} → ${answerOrNone(firstDivergence.approval.b)}</span>`
          }</p>`;
  return html`<article class="compare" id="compare">
    <h1>compare ${runRef('a', a)} vs ${runRef('b', b)}</h1>
    ${verdict}
    <div class="cols">
      ${outcome('a', a, data.scenario, words)}
      ${outcome('b', b, data.scenario, words)}
    </div>
    ${costTable(comparison)}
    <h2>steps</h2>
    <table class="comparison">
      <thead><tr><th scope="col" class="num">step</th><th scope="col"></th><th scope="col">a: <code>${a.runId}</code></th><th scope="col">b: <code>${b.runId}</code></th></tr></thead>
      <tbody>${comparison.steps.map((step) => stepRows(step, comparison, links))}</tbody>
    </table>
  </article>`;
}

function outcome(side: 'a' | 'b', run: RunComparison['a'], scenario: string | null, words: RunWords): Html {
  return html`<section class="outcome" data-outcome="${side}" aria-label="outcome of ${side}">
    <h2>${side}: <code>${run.runId}</code> ${modeLabel(run.mode)}</h2>
    <p>${statusBadge(run.status)} ${words.ending({ ...run, scenario })}</p>
    ${run.cost === undefined || run.cost === null ? null : html`<p class="muted">paid USD ${usd(run.cost.paid.usd)}</p>`}
  </section>`;
}

function costTable(comparison: RunComparison): Html | null {
  const cost = comparison.cost;
  if (cost === null) return null;
  const signed = (value: number | null): string => (value === null ? '?' : `${value >= 0 ? '+' : ''}${usd(value)}`);
  return html`<table class="costs" aria-label="cost in USD">
    <thead><tr><th scope="col">cost in USD</th><th scope="col" class="num">paid</th><th scope="col" class="num">avoided</th><th scope="col" class="num">inherited</th><th scope="col" class="num">trajectory</th></tr></thead>
    <tbody>
      ${(['a', 'b'] as const).map(
        (
          side,
        ) => html`<tr><td>${side}</td><td class="num">${usd(cost[side].paidUsd)}</td><td class="num">${usd(cost[side].avoidedUsd)}</td>
          <td class="num">${usd(cost[side].inheritedUsd)}</td><td class="num">${usd(cost[side].trajectoryUsd)}</td></tr>`,
      )}
      <tr><td>b − a</td><td class="num">${signed(cost.difference.paidUsd)}</td><td></td><td></td><td class="num">${signed(cost.difference.trajectoryUsd)}</td></tr>
    </tbody>
  </table>`;
}

function stepRows(step: ComparedStep, comparison: RunComparison, links: PageLinks): Html {
  const first = comparison.firstDivergence?.step === step.step;
  const mark = first
    ? html`<span class="divergence-mark">◆ first divergence</span>`
    : step.same
      ? html`<span class="same-mark" title="same">= same</span>`
      : html`<span class="divergence-mark">≠ differs</span>`;
  const changes = [
    fieldChanges(step.changes.request, `request fields that differ at step ${step.step}`),
    fieldChanges(step.changes.response, `response fields that differ at step ${step.step}`),
  ];
  return html`<tr class="step-row${step.same ? ' same' : ' differs'}" id="cmp-step-${step.step}" data-step="${step.step}" tabindex="-1" ${first ? html`data-first-divergence` : ''}>
    <td class="num">${step.step}</td>
    <td>${mark}</td>
    <td>${sideCell(comparison.a.runId, step.step, step.a, links)}</td>
    <td>${sideCell(comparison.b.runId, step.step, step.b, links)}</td>
  </tr>${step.same || changes.every((part) => part === null) ? null : html`<tr class="changes-row" data-changes-of="${step.step}"><td></td><td></td><td colspan="2">${changes}</td></tr>`}`;
}

const answerOrNone = (decision: AnswerWord | null): Html =>
  decision === null ? html`<span class="muted">no answer</span>` : decisionMark(decision);

function sideCell(runId: string, step: number, side: ComparedSide | null, links: PageLinks): Html {
  if (side === null) return html`<span class="muted">— no step —</span>`;
  const href = links.run(runId, step);
  const call = html`<code>${side.kind}#${side.index}</code>`;
  return html`${href === null ? call : html`<a href="${href}">${call}</a>`} ${provenanceBadge(side.provenance)}
    ${side.sideEffect ? html`<span class="side-effect">side effect, live</span>` : null}
    <span class="muted hash" title="${side.requestHash}">${shortHash(side.requestHash)}</span>
    <div class="summary">${side.approval === undefined ? side.summary : comparedAnswer(side.approval)}</div>`;
}
