import type { ClassesResult, RunClass } from '../../workflows/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { countsWords, daysWords, percent, sinceWords } from '../../workflows/index.js';
import { usd } from './labels.js';
import type { PageLinks } from './page-links.js';
import { runRef } from './run-ref.js';

/** What the classes page draws: `classes --json`, and the statuses its filter offers. */
export interface ClassesPageData {
  readonly result: ClassesResult;
  /** The statuses a run can end with: the choices of `classes --status`. */
  readonly statuses: readonly string[];
}

/**
 * Every class of recorded runs in a period, by size, as `forkpoint classes`
 * prints it: each with its share, how it ended, its trajectory in words, an
 * example run, its days and builds, what its live calls cost and the run
 * that verified a fix against it. A class's words come from a build's labels
 * and the agent's tool names: text, escaped as every payload is.
 */
export function classesPage(data: ClassesPageData, links: PageLinks): Html {
  const { result } = data;
  const status = result.status === null ? '' : ` that ended ${result.status}`;
  const count = `${result.classes.length} ${result.classes.length === 1 ? 'class' : 'classes'}`;
  return html`<h1>classes</h1>
    <p class="headline">is this one run or a class of runs? ${result.matching} of ${result.recorded} recorded runs ${sinceWords(result.since)}${status}, in ${count}, largest first</p>
    ${filterForm(data)}
    ${
      result.classes.length === 0
        ? html`<p class="muted">no recorded run ${result.recorded === 0 ? 'with a failure signature' : 'matches these filters'} ${sinceWords(result.since)}</p>`
        : html`<table class="classes">
          <thead><tr><th scope="col" class="num">runs</th><th scope="col" class="num">share</th><th scope="col">ending</th><th scope="col">trajectory</th>
            <th scope="col">example</th><th scope="col">days</th><th scope="col">builds</th><th scope="col" class="num">paid USD</th><th scope="col">fix verified</th></tr></thead>
          <tbody>${result.classes.map((kind) => classRow(kind, result.since, links))}</tbody>
        </table>`
    }`;
}

function classRow(kind: RunClass, since: string | null, links: PageLinks): Html {
  const similar = links.similar(kind.example, since === null ? {} : { since });
  return html`<tr data-class="${kind.digest}">
    <td class="num">${kind.runs}</td>
    <td class="num">${percent(kind.share)}</td>
    <td>${kind.words.ending}</td>
    <td class="summary"><code>${kind.words.trajectory}</code></td>
    <td>${runRef(kind.example, links)}${similar === null ? null : html` <a class="muted" href="${similar}">similar</a>`}</td>
    <td>${daysWords(kind)}</td>
    <td>${countsWords(kind.byBuild)}</td>
    <td class="num">${usd(kind.paidUsd)}</td>
    <td>${verified(kind, links)}</td>
  </tr>`;
}

function verified(kind: RunClass, links: PageLinks): Html | string {
  const fix = kind.verified;
  if (fix === null) return 'no';
  return html`<span data-verified="${fix.checkRunId}">${fix.build} (${fix.mode} ${runRef(fix.checkRunId, links)} of ${runRef(fix.runId, links)})</span>`;
}

function filterForm(data: ClassesPageData): Html {
  const { since, status } = data.result;
  return html`<form class="filters" method="get" action="/classes" aria-label="filters">
    <label>status<select name="status"><option value="">any</option>${data.statuses.map(
      (option) => html`<option ${option === status ? html`selected` : ''}>${option}</option>`,
    )}</select></label>
    <label>since<input name="since" type="date" value="${since?.slice(0, 10) ?? ''}" /></label>
    <button>filter</button>
  </form>`;
}
