import type { JsonValue } from '../../json/index.js';
import { trustedHtml, type Html } from './html.js';

/**
 * A JSON document as the body of a `<script type="application/json">`: `<`
 * is written `\u003c` so that no payload can close the element or open a
 * comment, and the two line separators JavaScript once rejected are escaped too.
 * `JSON.parse` of the element's text gives the document back unchanged.
 */
export function jsonInScript(value: JsonValue): Html {
  const text = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return trustedHtml(text);
}
