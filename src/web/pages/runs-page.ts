import type { RunPage, RunSummary } from '../../engine/index.js';
import type { RecentLineage } from '../data/index.js';
import { RUN_MODES, RUN_STATUSES } from '../../vocabulary/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks, RunsFilter } from './page-links.js';
import type { RunWords } from './run-words.js';
import { modeLabel, statusBadge, tierText, usd } from './labels.js';

/** What the runs page draws: one page of runs, newest first, and the filters that chose them. */
export interface RunsPageData {
  readonly page: RunPage;
  readonly filter: RunsFilter;
  /** The runs the newest forks, replays and re-executions came from: shown above the first, unfiltered page. */
  readonly lineages: readonly RecentLineage[];
}

/** The runs page: a filter form, the runs of one page with their mode label as the CLI prints it, and the next page. */
export function runsPage(data: RunsPageData, links: PageLinks, words: RunWords): Html {
  const { page, filter } = data;
  const next = page.next === null ? null : links.runs({ ...filter, before: page.next });
  const { before, ...newest } = filter;
  return html`<h1>runs</h1>
    ${lineagesPanel(data.lineages, links, words)}
    ${filterForm(filter)}
    ${
      page.runs.length === 0
        ? html`<p class="muted">no runs ${isFiltered(filter) ? 'match these filters' : 'yet: `forkpoint record --help` shows how to record one'}</p>`
        : html`<table class="runs">
          <thead><tr><th scope="col">run</th><th scope="col">mode</th><th scope="col">build</th><th scope="col">input</th><th scope="col">world</th><th scope="col" class="num">steps</th>
            <th scope="col">from</th><th scope="col">outcome</th><th scope="col">tier</th><th scope="col" class="num">USD</th><th scope="col">created</th></tr></thead>
          <tbody>${page.runs.map((run) => runRow(run, links, words))}</tbody>
        </table>`
    }
    <nav class="pager" aria-label="pages">
      <span>${page.runs.length} runs, newest first</span>
      ${before === undefined ? null : html`<a href="${links.runs(newest)}">newest</a>`}
      ${next === null ? null : html`<a href="${next}" rel="next">older runs →</a>`}
    </nav>`;
}

const isFiltered = (filter: RunsFilter): boolean =>
  Object.entries(filter).some(([name, value]) => name !== 'limit' && name !== 'before' && value !== undefined);

function runRow(run: RunSummary, links: PageLinks, words: RunWords): Html {
  const href = links.run(run.runId);
  const origin = run.parent?.runId ?? run.sourceRunId;
  const originHref = origin === null ? null : links.run(origin);
  const originText = origin === null ? '-' : run.parent === null ? origin : `${origin}@${run.parent.atStep}`;
  return html`<tr data-run-id="${run.runId}">
    <td><code>${href === null ? run.runId : html`<a href="${href}">${run.runId}</a>`}</code></td>
    <td>${modeLabel(run.mode)}</td>
    <td>${run.agent.name}/${run.agent.build}</td>
    <td class="summary">${Object.entries(run.input)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ')}</td>
    <td>${run.worldAt ?? '-'}</td>
    <td class="num">${run.stepCount}</td>
    <td><code>${originHref === null ? originText : html`<a href="${originHref}">${originText}</a>`}</code></td>
    <td>${statusBadge(run.status)} <span class="summary muted">${words.ending(run)}</span></td>
    <td>${tierText(run.retention)}</td>
    <td class="num">${run.cost === null ? '-' : usd(run.cost.paid.usd)}</td>
    <td>${run.createdAt}</td>
  </tr>`;
}

function filterForm(filter: RunsFilter): Html {
  const choice = (name: string, options: readonly string[], selected: string | undefined): Html =>
    html`<label>${name}<select name="${name}"><option value="">any</option>${options.map(
      (option) => html`<option ${option === selected ? html`selected` : ''}>${option}</option>`,
    )}</select></label>`;
  const text = (name: string, value: string | undefined, type = 'text'): Html =>
    html`<label>${name}<input name="${name}" type="${type}" value="${value ?? ''}" /></label>`;
  return html`<form class="filters" method="get" action="/runs" aria-label="filters">
    ${choice('mode', RUN_MODES, filter.mode)}
    ${choice('status', RUN_STATUSES, filter.status)}
    ${text('build', filter.build)}
    ${text('scenario', filter.scenario)}
    ${text('since', filter.since?.slice(0, 10), 'date')}
    ${text('until', filter.until?.slice(0, 10), 'date')}
    <button>filter</button>
  </form>`;
}

const count = (n: number, one: string, many: string): string | null =>
  n === 0 ? null : `${n} ${n === 1 ? one : many}`;

// Where the stories are: a store's newest runs may be a batch of recordings that push an incident off the page.
function lineagesPanel(lineages: readonly RecentLineage[], links: PageLinks, words: RunWords): Html | null {
  if (lineages.length === 0) return null;
  return html`<section class="panel lineages" aria-label="recent lineages">
    <h2>recent lineages: the runs the newest forks, replays and re-executions came from</h2>
    <ul>${lineages.map(({ run, forks, replays, reexecutions }) => {
      const href = links.run(run.runId);
      const made = [
        count(forks, 'fork', 'forks'),
        count(replays, 'replay', 'replays'),
        count(reexecutions, 're-execution', 're-executions'),
      ];
      return html`<li data-lineage="${run.runId}"><a data-run-link="${run.runId}" href="${href ?? ''}"><code>${run.runId}</code></a>
        ${modeLabel(run.mode)} <span class="muted">${run.agent.name}/${run.agent.build}</span> ${statusBadge(run.status)}
        <span class="summary muted">${words.ending(run)}</span> · ${made.filter((part) => part !== null).join(' · ')}</li>`;
    })}</ul>
  </section>`;
}
