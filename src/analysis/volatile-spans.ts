import type { JsonValue } from '../json/index.js';
import { stableJson, isJsonArray, isJsonObject } from '../json/index.js';

/** A kind of bytes that change on every call: the build put them there, and no observation caused them. */
export interface VolatilePattern {
  readonly name: string;
  /** Global, so that `replace` masks every occurrence. */
  readonly pattern: RegExp;
}

/**
 * The spans a request may carry that differ on every call. Longer, more
 * specific shapes come first, so that a UUID is masked as a UUID before its
 * hex groups could be taken for a hex token.
 */
export const VOLATILE_PATTERNS: readonly VolatilePattern[] = [
  {
    name: 'ISO 8601 timestamp',
    pattern: /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?/g,
  },
  { name: 'UUID', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi },
  // 13 digits from 1: epoch milliseconds from 2001 to 2033.
  { name: 'epoch milliseconds', pattern: /\b1\d{12}\b/g },
  { name: 'hex token', pattern: /\b[0-9a-f]{16,}\b/gi },
  // A word of 20+ letters and digits mixing both, optionally prefixed like `req_` or `msg_`: no prose looks like that.
  { name: 'base62 token', pattern: /\b(?:[A-Za-z]+_)?(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{20,}\b/g },
];

const EPOCH_MS_MIN = 1e12;
const EPOCH_MS_MAX = 2e12;
const EPOCH_MS = 'epoch milliseconds';

/**
 * `value` with every volatile span replaced by a placeholder naming its kind
 * (`⟨UUID⟩`), in strings and, for epoch milliseconds, in numbers too. Two
 * values that are equal once masked differ only in volatile spans. Spans of
 * the kind `keep` are claimed but left as they are, so that no later pattern
 * masks them in its stead (a hex token also looks like a base62 one).
 */
export function maskVolatile(value: JsonValue, keep?: string): JsonValue {
  if (typeof value === 'string')
    return spansOf(value)
      .map((span) => (span.kind === null || span.kind === keep ? span.text : `⟨${span.kind}⟩`))
      .join('');
  if (typeof value === 'number') {
    const epoch = Number.isInteger(value) && value >= EPOCH_MS_MIN && value < EPOCH_MS_MAX;
    return epoch && keep !== EPOCH_MS ? `⟨${EPOCH_MS}⟩` : value;
  }
  if (isJsonArray(value)) return value.map((item) => maskVolatile(item, keep));
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskVolatile(item, keep)]));
  return value;
}

/**
 * The kinds of volatile span that make `before` and `after` differ: a kind is
 * involved when the two still differ with its spans left unmasked. Meaningful
 * when the two are equal once every kind is masked.
 */
export function volatileKindsBetween(before: JsonValue, after: JsonValue): string[] {
  return VOLATILE_PATTERNS.map((pattern) => pattern.name).filter(
    (kind) => stableJson(maskVolatile(before, kind)) !== stableJson(maskVolatile(after, kind)),
  );
}

interface Span {
  readonly text: string;
  /** The volatile kind that claimed the span; null for ordinary text. */
  readonly kind: string | null;
}

// Cuts a string into volatile spans and ordinary text, each pattern claiming spans in order of precedence.
function spansOf(text: string): Span[] {
  let spans: Span[] = [{ text, kind: null }];
  for (const { name, pattern } of VOLATILE_PATTERNS) {
    spans = spans.flatMap((span) => (span.kind === null ? split(span.text, name, pattern) : [span]));
  }
  return spans;
}

function split(text: string, kind: string, pattern: RegExp): Span[] {
  const spans: Span[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) spans.push({ text: text.slice(last, match.index), kind: null });
    spans.push({ text: match[0], kind });
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last), kind: null });
  return spans;
}
