import type { SimilarResult } from '../../workflows/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { countsWords, daysWords, percent, sinceWords } from '../../workflows/index.js';
import { runIdList } from './run-id-list.js';
import type { PageLinks } from './page-links.js';
import { runRef } from './run-ref.js';

/**
 * The runs like one run, as `forkpoint similar` prints them: its class (the
 * recorded runs with its failure signature) with their counts by build, day
 * and outcome and their share of the period, the observation that led to the
 * ending, and the runs that took the same path to it and ended otherwise,
 * counted by their ending. Every run id is linked to its page.
 */
export function similarPage(result: SimilarResult, links: PageLinks): Html {
  const { same, samePath, words, runId } = result;
  const period = sinceWords(result.since);
  const classes = links.classes(result.since === null ? {} : { since: result.since });
  return html`<article class="similar" data-run-id="${runId}">
    <h1>runs like ${runRef(runId, links)}</h1>
    <p class="headline">class: <code>${words.trajectory}</code> → ${words.ending}</p>
    ${filterForm(result, links)}
    <dl class="facts">
      <dt>signature</dt><dd><code>${result.signature.digest}</code> (version ${result.signature.version})</dd>
      <dt>class</dt><dd data-same="${same.runs}">${same.runs} ${same.runs === 1 ? 'run' : 'runs'} of ${result.recorded} recorded ${period} (${percent(same.share)})${same.runs === 1 ? ': a one-off' : ''}</dd>
      ${
        same.runs === 0
          ? null
          : html`<dt>by build</dt><dd>${countsWords(same.byBuild)}</dd>
        <dt>by day</dt><dd>${countsWords(same.byDay)}${Object.keys(same.byDay).length > 1 ? html` <span class="muted">(${daysWords(same)})</span>` : null}</dd>
        <dt>by outcome</dt><dd>${countsWords(same.byStatus)}</dd>`
      }
      ${words.lead === null ? null : html`<dt>lead</dt><dd>all after <code>${words.lead}</code></dd>`}
    </dl>
    ${classes === null ? null : html`<p><a href="${classes}">every class ${period}</a></p>`}
    <h2>the runs of its class</h2>
    ${same.runs === 0 ? html`<p class="muted">no recorded run ${period} has its signature</p>` : runIdList(same.runIds, links, runId)}
    <h2>the same path, ended otherwise</h2>
    ${
      samePath.runs === 0
        ? html`<p class="muted">no other run took the same path to it and ended otherwise</p>`
        : html`<p data-same-path="${samePath.runs}">${samePath.runs} more took the same path${words.lead === null ? '' : html` to <code>${words.lead}</code>`} and ended otherwise</p>
          <ul class="counts">${Object.entries(samePath.byEnding)
            .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
            .map(([ending, count]) => html`<li>${count} ${ending}</li>`)}</ul>
          ${runIdList(samePath.runIds, links)}`
    }
  </article>`;
}

function filterForm(result: SimilarResult, links: PageLinks): Html | null {
  const action = links.similar(result.runId);
  if (action === null) return null;
  return html`<form class="filters" method="get" action="${action}" aria-label="filters">
    <label>since<input name="since" type="date" value="${result.since?.slice(0, 10) ?? ''}" /></label>
    <button>filter</button>
  </form>`;
}
