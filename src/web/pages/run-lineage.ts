import type { Lineage, LineageNode, RunSummary } from '../../engine/index.js';
import { describeOverride } from '../../fork/index.js';
import { isJsonObject } from '../../json/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import type { PageLinks } from './page-links.js';
import { modeLabel, statusBadge } from './labels.js';

const RELATION: Readonly<Record<LineageNode['relation'], string>> = {
  root: '',
  fork: '◆ fork',
  replay: '↻ replay',
  reexecution: '≈ re-execution, not a replay',
};

/**
 * A run's lineage as a tree of runs: the chain it came from, then the run
 * with every fork, replay and re-execution made from it, each with its mode
 * label, build, status and, for a fork, the step it branched at; a fork
 * that answered a person's approval otherwise says how.
 */
export function runLineage(lineage: Lineage, here: string, links: PageLinks): Html {
  const chain = lineage.ancestors.map((run) => html`<li>${runLink(run, here, links)}</li>`);
  return html`<nav class="lineage" aria-label="lineage">
    ${chain.length === 0 ? null : html`<p class="muted">came from</p><ul>${chain}</ul>`}
    <ul>${treeNode(lineage.tree, here, links)}</ul>
  </nav>`;
}

function treeNode(node: LineageNode, here: string, links: PageLinks): Html {
  const relation = RELATION[node.relation];
  const at = node.relation === 'fork' && node.run.parent !== null ? ` @ step ${node.run.parent.atStep}` : '';
  const children = node.children.map((child) => treeNode(child, here, links));
  const answered =
    node.relation === 'fork' && isJsonObject(node.override) && node.override.kind === 'approval'
      ? html` <span class="answered-otherwise">✋ ${describeOverride(node.override, node.changes)}</span>`
      : null;
  return html`<li>
    ${relation === '' ? null : html`<span class="relation">${relation}${at}</span> `}${runLink(node.run, here, links)}${answered}
    ${node.liveSideEffects.length === 0 ? null : html` <span class="side-effect">live side effects: ${node.liveSideEffects.join(', ')}</span>`}
    ${children.length === 0 ? null : html`<ul>${children}</ul>`}
  </li>`;
}

function runLink(run: RunSummary, here: string, links: PageLinks): Html {
  const href = links.run(run.runId);
  const words = html`<code>${run.runId}</code> ${modeLabel(run.mode)} <span class="muted">${run.agent.name}/${run.agent.build}</span> ${statusBadge(run.status)}`;
  const own = run.runId === here ? ' here' : '';
  if (href === null) return html`<span class="run-ref${own}" data-run-link="${run.runId}">${words}</span>`;
  return html`<a class="run-ref${own}" data-run-link="${run.runId}" href="${href}" ${own === '' ? '' : html`aria-current="page"`}>${words}</a>`;
}
