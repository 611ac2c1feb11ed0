import type { FieldChange } from '../../vocabulary/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';

/** Field changes as a list, each field's path with the old value struck and the new one marked (by sign and by colour). */
export function fieldChanges(changes: readonly FieldChange[], label: string): Html | null {
  if (changes.length === 0) return null;
  return html`<ul class="changes" aria-label="${label}">${changes.map(
    (change) => html`<li><code>${change.path}</code> <del>${change.before}</del> <ins>${change.after}</ins></li>`,
  )}</ul>`;
}
