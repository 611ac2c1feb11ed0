import type { JsonObject } from '../../json/index.js';
import { unmappedCall } from './ai-sdk-call-json.js';

/**
 * The headers a call's request is keyed without, because they say who calls
 * and how, never what the model is asked: `ai`'s `user-agent` (it names the
 * SDK's version, so an upgrade would miss every recording), credentials
 * (which must never be stored, and pick an account, not an answer) and trace
 * context. Every other header is kept: `anthropic-beta`, `openai-beta` and
 * their kind turn on behaviour that changes the answer.
 */
const LEFT_OUT: ReadonlySet<string> = new Set([
  'user-agent',
  'authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'traceparent',
  'tracestate',
  'baggage',
]);

/**
 * A call's headers that may change the answer, by lower-case name (HTTP names
 * are case-blind), or none; a header given as `undefined` is not sent, and so
 * not kept. Each one left out is named in `leftOut` (`headers.user-agent`).
 */
export function headersKeptOf(headers: unknown, leftOut: Set<string>): JsonObject | undefined {
  if (headers === undefined) return undefined;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
    throw unmappedCall('headers', null, 'they are not an object of names and values', 'give them so');
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers as Readonly<Record<string, unknown>>)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (typeof value !== 'string')
      throw unmappedCall(`headers.${name}`, null, 'a header value is a string', 'give it as one, or leave it out');
    if (LEFT_OUT.has(lower)) {
      leftOut.add(`headers.${lower}`);
      continue;
    }
    if (lower in kept)
      throw unmappedCall(`headers.${name}`, null, `header ${lower} is given twice`, 'give each header once');
    kept[lower] = value;
  }
  return Object.keys(kept).length === 0 ? undefined : kept;
}
