import type { DivergenceRow } from '../../analysis/index.js';
import { DIVERGENCE_MEANINGS, stoppedOnRecording } from '../../analysis/index.js';
import type { JsonObject } from '../../json/index.js';
import type {
  DivergenceReportDocument,
  ReportedReexecution,
  SkippedRun,
  StoredDivergenceRef,
} from '../../workflows/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { barChart } from './bar-chart.js';
import { fieldChanges } from './field-changes.js';
import { modeLabel, statusBadge } from './labels.js';
import type { PageLinks } from './page-links.js';
import { runRef } from './run-ref.js';

/** What the divergence page draws: `divergence-report --json` read from the store, and the other reports it holds. */
export interface DivergencePageData {
  readonly report: DivergenceReportDocument;
  /** Every report the store holds re-executions for (see `storedDivergenceReports`), to go to another. */
  readonly reports: readonly StoredDivergenceRef[];
}

/**
 * The divergence report of stored re-executions: where each first left its
 * recording, by source, as a bar chart and a table of counts and shares; then
 * each source's re-executions, each linked to its run and to the compare of
 * its recording against it, with the first fields that differ; then the runs
 * skipped and why. Nothing is run to draw it (the entries are
 * re-executions already made; their statuses are drawn by glyph and word).
 */
export function divergencePage(data: DivergencePageData, links: PageLinks): Html {
  const { report } = data;
  const skippedCount = report.skipped.reduce((sum, run) => sum + run.reexecutions, 0);
  const build = report.build === null ? "each run's own build" : `build ${report.build}`;
  return html`<article class="divergence" id="divergence">
    <h1>divergence report ${modeLabel(report.mode)}</h1>
    <p class="headline">${plural(report.runs, 'recorded run')} × ${report.repeats} re-executed against the world of ${report.worldAt} · ${build}</p>
    <p class="muted">Read from the re-executions in the store: drawing this page ran nothing.</p>
    ${report.total === 0 ? emptyNote(report) : sourceChart(report)}
    <table class="divergence-table" aria-label="first divergence by source">
      <thead><tr><th scope="col">first divergence</th><th scope="col" class="num">count</th><th scope="col" class="num">share</th><th scope="col">what happened</th></tr></thead>
      <tbody>
        ${report.rows.map((row) => sourceRow(row, report.total))}
        <tr class="total"><td>total</td><td class="num">${report.total}</td><td class="num"></td>
          <td>= ${report.runs} runs × ${report.repeats} − ${skippedCount} skipped</td></tr>
      </tbody>
    </table>
    ${report.rows.filter((row) => row.count > 0).map((row) => sourceSection(row, links))}
    ${skippedSection(report.skipped, links)}
    ${otherReports(data, links)}
  </article>`;
}

function sourceChart(report: DivergenceReportDocument): Html {
  const bars = report.rows.map((row) => ({ label: row.source, count: row.count }));
  return html`<figure class="chart">
    ${barChart(bars, { title: 'first-divergence sources', total: report.total })}
    <figcaption class="muted">Where each of ${plural(report.total, 're-execution')} first left its recording.</figcaption>
  </figure>`;
}

function emptyNote(report: DivergenceReportDocument): Html {
  const build = report.build === null ? '' : ` --build ${report.build}`;
  return html`<p class="panel empty">No re-execution against the world of ${report.worldAt} is classified here.
    Make some with <code>forkpoint divergence-report --all-recorded --at ${report.worldAt}${build}</code>, then come back.</p>`;
}

function sourceRow(row: DivergenceRow<ReportedReexecution>, total: number): Html {
  const name = html`<code>${row.source}</code>`;
  return html`<tr data-source="${row.source}" data-count="${row.count}">
    <td>${row.count === 0 ? name : html`<a href="#source-${row.source}">${name}</a>`}</td>
    <td class="num">${row.count}</td>
    <td class="num">${total === 0 ? '-' : `${(100 * row.share).toFixed(1)}%`}</td>
    <td>${DIVERGENCE_MEANINGS[row.source]}</td>
  </tr>`;
}

function sourceSection(row: DivergenceRow<ReportedReexecution>, links: PageLinks): Html {
  return html`<section class="source" id="source-${row.source}" aria-label="${row.source}">
    <h2><code>${row.source}</code> (${row.count})</h2>
    <table class="reexecutions">
      <thead><tr><th scope="col">recorded run</th><th scope="col">input</th><th scope="col" class="num">#</th><th scope="col">re-execution</th><th scope="col">where it left</th>
        <th scope="col">what differed</th><th scope="col"></th></tr></thead>
      <tbody>${row.entries.map((entry) => entryRow(entry, links))}</tbody>
    </table>
  </section>`;
}

function entryRow(entry: ReportedReexecution, links: PageLinks): Html {
  const compare = links.compare(entry.recordedRunId, entry.runId);
  return html`<tr data-run-id="${entry.runId}">
    <td>${runRef(entry.recordedRunId, links)}</td>
    <td>${inputText(entry.input)}</td>
    <td class="num">${entry.repeat}</td>
    <td>${runRef(entry.runId, links)} ${statusBadge(entry.status)}</td>
    <td>${where(entry)}</td>
    <td>${fieldChanges(entry.diff, `what differed in ${entry.runId}`) ?? html`<span class="muted">${entry.reason}</span>`}</td>
    <td>${compare === null ? null : html`<a data-compare href="${compare}">compare</a>`}</td>
  </tr>`;
}

// Where a re-execution left its recording; one that never left it says so in words.
function where(entry: ReportedReexecution): Html {
  if (entry.source === 'none') return html`<span class="muted">never: followed the recording to the end</span>`;
  if (stoppedOnRecording(entry.source)) return html`${entry.reason}`;
  return html`step ${entry.step ?? '?'} <code>${entry.call ?? ''}</code>${entry.on === null ? '' : `, on the ${entry.on}`}`;
}

function skippedSection(skipped: readonly SkippedRun[], links: PageLinks): Html | null {
  if (skipped.length === 0) return null;
  return html`<section class="skipped" aria-label="skipped">
    <h2>skipped (${skipped.length})</h2>
    <ul>${skipped.map(
      (run) => html`<li data-skipped="${run.runId}">${runRef(run.runId, links)} <code>${run.code}</code>: ${run.reason}
        <span class="muted">(${plural(run.reexecutions, 're-execution')})</span></li>`,
    )}</ul>
  </section>`;
}

function otherReports(data: DivergencePageData, links: PageLinks): Html | null {
  const { report } = data;
  const others = data.reports
    .map((ref) => ({
      ref,
      href: links.divergence({ at: ref.at, ...(ref.build === null ? {} : { build: ref.build }) }),
    }))
    .filter(({ ref }) => ref.at !== report.worldAt || ref.build !== report.build);
  if (others.length === 0) return null;
  return html`<nav class="reports" aria-label="other reports">
    <h2>other reports in this store</h2>
    <ul>${others.map(
      ({ ref, href }) =>
        html`<li>${href === null ? label(ref) : html`<a href="${href}">${label(ref)}</a>`} <span class="muted">(${plural(ref.reexecutions, 're-execution')})</span></li>`,
    )}</ul>
  </nav>`;
}

const label = (ref: StoredDivergenceRef): string =>
  `the world of ${ref.at}, ${ref.build === null ? "each run's own build" : `build ${ref.build}`}`;

function inputText(input: JsonObject): string {
  return Object.entries(input)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
