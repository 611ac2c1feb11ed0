import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { jsonInScript } from '../html/json-in-script.js';
import type { JsonValue } from '../../json/index.js';
import { comparePage } from '../pages/compare-page.js';
import { pageDocument } from '../pages/layout.js';
import { reportLinks } from '../pages/page-links.js';
import { runPage } from '../pages/run-page.js';
import type { RunWords } from '../pages/run-words.js';
import { tierText } from '../pages/labels.js';
import type { ReportContents } from './report-contents.js';

/**
 * A report as one HTML file: the run's page with every step's request,
 * response and checkpoint folded under it, then the compare page when asked,
 * the stylesheet and script inlined under a content security policy that
 * allows nothing else, and the documents it was drawn from (`show`, `tree`
 * and `compare --json`) embedded as JSON for whoever wants them. It opens
 * from `file://` with no network and names the tier it holds.
 */
export function renderReport(contents: ReportContents, words: RunWords, writtenAt: Date): Html {
  const { run, tree, comparison } = contents;
  const held = new Set([run.runId]);
  const links = reportLinks(held, comparison !== null);
  const body = html`${runPage(
    {
      run,
      tiers: run.tiers,
      lineage: tree,
      from: 1,
      to: run.steps.length,
      opened: contents.checkpoints,
      place: 'report',
    },
    links,
    words,
  )}${comparison === null ? null : html`<hr />${comparePage({ comparison, scenario: run.scenario }, links, words)}`}
    <script type="application/json" id="forkpoint-data">${jsonInScript(documentsOf(contents))}</script>`;
  const banner = html`static report of run <code>${run.runId}</code>${comparison === null ? '' : html` and its comparison with <code>${comparison.b.runId}</code>`},
    written ${writtenAt.toISOString()}: no network, no server. Tier: ${tierText(run.retention)}; this file does not expire with it.`;
  const title =
    comparison === null ? `report of run ${run.runId}` : `report of run ${run.runId} vs ${comparison.b.runId}`;
  return pageDocument({ title, body, banner }, links);
}

function documentsOf(contents: ReportContents): JsonValue {
  // The documents are plain JSON already (each is what a command prints); the round trip only drops their types.
  return JSON.parse(
    JSON.stringify({ show: contents.run, tree: contents.tree, compare: contents.comparison }),
  ) as JsonValue;
}
