import type { StepView } from '../../engine/index.js';
import type { JsonValue } from '../../json/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { jsonTree } from './json-tree.js';
import { provenanceBadge } from './labels.js';

/** The checkpoint after a step as a page shows it: the machine's state and context, or why it cannot be shown. */
export type CheckpointView =
  | { readonly kind: 'state'; readonly state: JsonValue; readonly context: JsonValue }
  | { readonly kind: 'missing'; readonly reason: string };

/** Where a step's detail sits and what it holds besides the step itself. */
export interface StepDetailParts {
  /** The element id: `step-detail` on a run's page, one per step in a report. */
  readonly id: string;
  /** Whether the request and response start unfolded. */
  readonly open: boolean;
  readonly checkpoint: CheckpointView;
  /** On an approval step, the person's answer drawn as one (see `approvalAnswer`), above its request and response. */
  readonly answer?: Html | null;
}

/** A step opened: its request, its response and the checkpoint after it, each as folded JSON. */
export function stepDetail(step: StepView, parts: StepDetailParts): Html {
  const open = parts.open ? html`open` : '';
  const checkpoint =
    parts.checkpoint.kind === 'state'
      ? jsonTree({ state: parts.checkpoint.state, context: parts.checkpoint.context }, { openDepth: 1 })
      : html`<p class="muted">${parts.checkpoint.reason}</p>`;
  return html`<section id="${parts.id}" class="step-detail" data-step="${step.step}" aria-label="step ${step.step}">
    <h3>step ${step.step} · <code>${step.kind}#${step.index}</code> · ${provenanceBadge(step.provenance)}
      <span class="muted">request <code>${step.requestHash}</code></span></h3>
    ${parts.answer ?? null}
    <details class="step-request" ${open}><summary>request</summary>${jsonTree(step.request, { openDepth: 2 })}</details>
    <details class="step-response" ${open}><summary>response</summary>${jsonTree(step.response, { openDepth: 3 })}</details>
    <details class="step-checkpoint"><summary>checkpoint after step ${step.step}</summary>${checkpoint}</details>
  </section>`;
}
