import type { RunView } from '../../engine/index.js';
import type { JsonValue } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';
import type { Finding } from '../../vocabulary/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { fieldChanges } from './field-changes.js';
import { jsonTree } from './json-tree.js';

const asText = (value: JsonValue | undefined): string =>
  value === undefined ? '(absent)' : typeof value === 'string' ? value : JSON.stringify(value);

/** A fork's override: the step it changed, what it changed field by field, and the override as it was given. */
export function overridePanel(run: Pick<RunView, 'parent'>): Html | null {
  const parent = run.parent;
  if (parent === null) return null;
  const changes = (parent.changes ?? []).map((change) => ({
    path: asText(change.path),
    before: asText(change.before),
    after: asText(change.after),
  }));
  // A person's answer given otherwise is a change of who decided what, not of a tool's output.
  const answered = isJsonObject(parent.override) && parent.override.kind === 'approval';
  return html`<section class="panel override" aria-label="override">
    <h2>${answered ? `◆ ✋ the approval at step ${parent.atStep}, answered otherwise` : `◆ override at step ${parent.atStep}`}</h2>
    ${fieldChanges(changes, 'what the override changed') ?? html`<p class="muted">the fork recorded no field changes</p>`}
    <details><summary>the override as given</summary>${jsonTree(parent.override, { openDepth: 3 })}</details>
  </section>`;
}

/** A replay's findings: each divergence and dropped call, with the request's field diff. */
export function findingsPanel(findings: readonly Finding[]): Html | null {
  if (findings.length === 0) return null;
  return html`<section class="panel findings" aria-label="findings">
    <h2>≠ ${findings.length === 1 ? '1 finding' : `${findings.length} findings`}</h2>
    <ul>${findings.map(
      (finding) => html`<li data-finding="${finding.classification}">
        <strong>${finding.classification}</strong> at step ${finding.step}, <code>${finding.kind}#${finding.index}</code>: ${finding.message}
        ${fieldChanges(finding.diff, 'the recorded request against the replayed one')}
      </li>`,
    )}</ul>
  </section>`;
}
