import type { RunView, TierSizes, Lineage } from '../../engine/index.js';
import { answeredApprovalsOf } from '../../engine/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';
import type { RunWords } from './run-words.js';
import type { CheckpointView } from './step-detail.js';
import { stepDetail } from './step-detail.js';
import { modeLabel, statusBadge, tierText, usd } from './labels.js';
import { findingsPanel, overridePanel } from './run-notes.js';
import { runLineage } from './run-lineage.js';
import { verificationsOfRun } from './verify-page.js';
import { runTimeline, TIMELINE_PAGE } from './run-timeline.js';
import { approvalAnswer, waitingPanel } from './approval-parts.js';

/** What `show --json` prints of a run: the run with its steps, and the bytes of each tier. */
export type RunDocument = RunView & { readonly tiers: TierSizes };

/** What a run's page draws. */
export interface RunPageData {
  readonly run: RunView;
  /**
   * The bytes of each tier, where the caller measured them: a report does; the
   * server does not, since measuring serializes the whole cassette (seconds for
   * a run of thousands of steps) and `/api/runs/<id>` has them.
   */
  readonly tiers: TierSizes | null;
  readonly lineage: Lineage;
  /** The steps drawn: a page of the timeline on the server, every step in a report. */
  readonly from: number;
  readonly to: number;
  /** The steps drawn open, each with the checkpoint after it. */
  readonly opened: ReadonlyMap<number, CheckpointView>;
  /** On the server the opened step is `#step-detail` and rows are `#step-K`; a report names each by its run. */
  readonly place: 'server' | 'report';
  /**
   * Whether the run has a failure signature to compare (it ended, after
   * forkpoint made them): the server reads it for the link to the runs like
   * it; absent in a report, which has no such page.
   */
  readonly signed?: boolean;
}

/**
 * A run's page: what it is (the CLI's headline, mode label first), how it
 * ended and what it cost, the call it waits to have approved, a fork's
 * override or a replay's findings, its lineage, and its timeline with the
 * opened step's request, response and checkpoint (an approval step's, the
 * person's answer first).
 */
export function runPage(data: RunPageData, links: PageLinks, words: RunWords): Html {
  const { run, place } = data;
  const anchor = (step: number): string => (place === 'server' ? `step-${step}` : `run-${run.runId}-step-${step}`);
  const approvals = answeredApprovalsOf(run.steps);
  const timeline = runTimeline(
    run,
    {
      from: data.from,
      to: data.to,
      anchor,
      approvals,
      detail: (step) => {
        const checkpoint = data.opened.get(step.step);
        if (checkpoint === undefined) return null;
        const id = place === 'server' ? 'step-detail' : `run-${run.runId}-step-${step.step}-detail`;
        const approval = approvals.get(step.step);
        const answer =
          approval === undefined
            ? null
            : approvalAnswer(approval, approval.callStep === null ? null : links.run(run.runId, approval.callStep));
        return stepDetail(step, { id, open: place === 'server', checkpoint, answer });
      },
    },
    links,
    words,
  );
  return html`<article class="run" id="run-${run.runId}" data-run-id="${run.runId}">
    <h1>run <code>${run.runId}</code> ${modeLabel(run.mode)}</h1>
    <p class="headline">${words.headline(run)}</p>
    ${runFacts(run, data.tiers, words)}
    ${compareLinks(run, links)}
    ${data.signed === true ? similarLink(run, links) : null}
    ${verificationsOfRun(data.lineage, links)}
    ${waitingPanel(run)}
    ${overridePanel(run)}
    ${findingsPanel(run.findings)}
    <h2>lineage</h2>
    ${runLineage(data.lineage, run.runId, links)}
    <h2>steps</h2>
    ${run.retention.expired ? expiredNote(run) : null}
    ${pager(run, data, links)}
    ${run.steps.length === 0 ? null : timeline}
  </article>`;
}

function runFacts(run: RunView, tiers: TierSizes | null, words: RunWords): Html {
  const cost = run.cost;
  const fact = (term: string, value: Html | string | null): Html | null =>
    value === null ? null : html`<dt>${term}</dt><dd>${value}</dd>`;
  return html`<dl class="facts">
    ${fact('status', html`${statusBadge(run.status)} ${words.ending(run)}`)}
    ${fact('steps', String(run.steps.length))}
    ${fact('build', `${run.agent.name}/${run.agent.build} (code ${run.agent.codeHash})`)}
    ${fact('scenario', run.scenario)}
    ${fact('world', run.worldAt)}
    ${fact('created', `${run.createdAt}${run.finishedAt === null ? '' : ` · finished ${run.finishedAt}`}`)}
    ${fact('tier', `${tierText(run.retention)}${tiers?.full == null ? '' : ` · full ${kilobytes(tiers.full)}`}${tiers?.structural == null ? '' : ` · structural ${kilobytes(tiers.structural)}`}`)}
    ${fact(
      'cost (USD)',
      cost === null
        ? null
        : `paid ${usd(cost.paid.usd)} · avoided ${usd(cost.avoided.usd)}${cost.inherited === null ? '' : ` · inherited ${usd(cost.inherited.usd)}`}${cost.unpriced.length === 0 ? '' : ` · unpriced: ${cost.unpriced.join(', ')}`}`,
    )}
  </dl>`;
}

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

// Where a run came from is the run to set it beside: a fork's parent, a replay's or re-execution's source.
function compareLinks(run: RunView, links: PageLinks): Html | null {
  const origin = run.parent?.runId ?? run.sourceRunId;
  if (origin === null) return null;
  const href = links.compare(origin, run.runId);
  if (href === null) return null;
  return html`<p><a data-compare href="${href}">compare with run ${origin}, where it came from</a></p>`;
}

function similarLink(run: RunView, links: PageLinks): Html | null {
  const href = links.similar(run.runId);
  if (href === null) return null;
  return html`<p><a data-similar href="${href}">one run or a class of runs? the recorded runs like this one</a></p>`;
}

function expiredNote(run: RunView): Html {
  const { retention } = run;
  return html`<p class="expired">The full tier of this run expired${retention.expiresAt === null ? '' : ` at ${retention.expiresAt}`}: no step's request, response or checkpoint is kept.
    ${retention.structuralExpiresAt === null ? '' : `Its structural tier (shapes only) remains until ${retention.structuralExpiresAt}.`}</p>`;
}

function pager(run: RunView, data: RunPageData, links: PageLinks): Html | null {
  const count = run.steps.length;
  if (count <= TIMELINE_PAGE && data.from === 1) return null;
  const earlier = data.from > 1 ? links.timeline(run.runId, Math.max(1, data.from - TIMELINE_PAGE)) : null;
  const later = data.to < count ? links.timeline(run.runId, data.to + 1) : null;
  const goTo = links.timeline(run.runId, 1);
  return html`<nav class="pager" aria-label="timeline pages">
    <span>steps ${data.from}–${data.to} of ${count}</span>
    ${earlier === null ? null : html`<a href="${earlier}" rel="prev">← earlier steps</a>`}
    ${later === null ? null : html`<a href="${later}" rel="next">later steps →</a>`}
    ${goTo === null ? null : html`<form method="get" action="${goTo.split('?')[0]}"><label>go to step <input name="step" type="number" min="1" max="${count}" /></label> <button>open</button></form>`}
  </nav>`;
}
