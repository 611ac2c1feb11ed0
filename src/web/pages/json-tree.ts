import type { JsonValue } from '../../json/index.js';
import { isJsonArray } from '../../json/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';

/** The characters of a string shown in a page; the rest is counted, never cut silently. */
export const STRING_CAP = 8192;

/**
 * The entries of an array or object a page draws: past it, the first and last
 * half show, and a line counts those between (a checkpoint deep in a long run
 * holds thousands of messages; the JSON document has them all).
 */
export const ITEM_CAP = 100;

/** How a JSON tree is drawn: the levels open at first, and nodes past which lists are cut. */
interface TreeOptions {
  /** Objects and arrays this deep or shallower start open (default 1: the top level). */
  readonly openDepth?: number;
}

/**
 * A JSON value as a folded tree of `<details>`: objects and arrays fold, the
 * top level starts open, every string is text (escaped), a long string
 * shows its first {@link STRING_CAP} characters and a long list its first and
 * last entries ({@link ITEM_CAP}), each saying how much it left out.
 * Find-in-page reaches inside closed folds in Chromium.
 */
export function jsonTree(value: JsonValue, options: TreeOptions = {}): Html {
  return html`<div class="json">${node(value, 0, options.openDepth ?? 1)}</div>`;
}

function node(value: JsonValue, depth: number, openDepth: number): Html {
  if (value === null) return html`<span class="jn">null</span>`;
  if (typeof value === 'string') return stringNode(value);
  if (typeof value === 'number') return html`<span class="jn">${String(value)}</span>`;
  if (typeof value === 'boolean') return html`<span class="jn">${String(value)}</span>`;
  const entries: [string, JsonValue][] = isJsonArray(value)
    ? value.map((item, at): [string, JsonValue] => [String(at), item])
    : Object.entries(value);
  const [open, close] = isJsonArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return html`${open}${close}`;
  const what = isJsonArray(value) ? `${entries.length} items` : `${entries.length} fields`;
  const item = ([key, child]: [string, JsonValue]): Html =>
    html`<li>${isJsonArray(value) ? html`<span class="ji">${key}</span>` : html`<span class="jk">${JSON.stringify(key)}</span>`}: ${node(child, depth + 1, openDepth)}</li>`;
  const half = ITEM_CAP / 2;
  const children =
    entries.length <= ITEM_CAP
      ? entries.map(item)
      : [
          ...entries.slice(0, half).map(item),
          html`<li class="j-cut">… ${entries.length - ITEM_CAP} ${isJsonArray(value) ? 'items' : 'fields'} not shown</li>`,
          ...entries.slice(-half).map(item),
        ];
  return html`<details ${depth < openDepth ? html`open` : ''}><summary>${open} <span class="jc">${what}</span></summary><ul>${children}</ul>${close}</details>`;
}

function stringNode(text: string): Html {
  if (text.length <= STRING_CAP) return html`<span class="js">${JSON.stringify(text)}</span>`;
  const shown = JSON.stringify(text.slice(0, STRING_CAP));
  return html`<span class="js">${shown.slice(0, -1)}</span><span class="j-cut">… ${text.length - STRING_CAP} more characters not shown</span>`;
}
