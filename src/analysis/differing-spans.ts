/** A range of characters that differs between two versions of a string. */
export interface DifferingSpan {
  /** Where the span starts in the first version, and where it ends (exclusive). */
  readonly start: number;
  readonly end: number;
  /** Where it starts and ends in the second version. */
  readonly otherStart: number;
  readonly otherEnd: number;
  readonly before: string;
  readonly after: string;
}

// Words and digit runs are tokens, and so is every other character: a timestamp then differs in a few
// tokens, not in one span that swallows the unchanged text between two changes.
const TOKEN = /[A-Za-z0-9]+|[^A-Za-z0-9]/g;
const MAX_TOKENS = 4000;

/**
 * Every span in which `b` differs from `a`, by a longest-common-subsequence
 * diff over tokens. Strings too long for a quadratic diff fall back to one
 * span between the common prefix and suffix.
 */
export function differingSpans(a: string, b: string): DifferingSpan[] {
  if (a === b) return [];
  const left = tokens(a);
  const right = tokens(b);
  if (left.length * right.length > (MAX_TOKENS * MAX_TOKENS) / 4) return [prefixSuffixSpan(a, b)];
  // lengths[i][j]: the longest common subsequence of left[i..] and right[j..], built from the last row up. A
  // cell past either end is the subsequence of an empty suffix: 0.
  const lengths = new Array<Uint32Array>(left.length + 1);
  const lcs = (i: number, j: number): number => lengths[i]?.[j] ?? 0;
  const sameToken = (i: number, j: number): boolean => {
    const l = left[i];
    const r = right[j];
    return l !== undefined && r !== undefined && l.text === r.text;
  };
  for (let i = left.length - 1; i >= 0; i--) {
    const row = new Uint32Array(right.length + 1);
    for (let j = right.length - 1; j >= 0; j--) {
      row[j] = sameToken(i, j) ? lcs(i + 1, j + 1) + 1 : Math.max(lcs(i + 1, j), row[j + 1] ?? 0);
    }
    lengths[i] = row;
  }
  const spans: DifferingSpan[] = [];
  let i = 0;
  let j = 0;
  let open: { i: number; j: number } | undefined;
  const close = (toI: number, toJ: number) => {
    if (open === undefined) return;
    const start = left[open.i]?.at ?? a.length;
    const end = left[toI]?.at ?? a.length;
    const otherStart = right[open.j]?.at ?? b.length;
    const otherEnd = right[toJ]?.at ?? b.length;
    spans.push({ start, end, otherStart, otherEnd, before: a.slice(start, end), after: b.slice(otherStart, otherEnd) });
    open = undefined;
  };
  while (i < left.length || j < right.length) {
    if (sameToken(i, j)) {
      close(i, j);
      i++;
      j++;
    } else {
      open ??= { i, j };
      if (j < right.length && (i === left.length || lcs(i, j + 1) >= lcs(i + 1, j))) j++;
      else i++;
    }
  }
  close(i, j);
  return spans;
}

function tokens(text: string): Array<{ text: string; at: number }> {
  return [...text.matchAll(TOKEN)].map((match) => ({ text: match[0], at: match.index }));
}

function prefixSuffixSpan(a: string, b: string): DifferingSpan {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let suffix = 0;
  while (
    suffix < a.length - start &&
    suffix < b.length - start &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  return {
    start,
    end: a.length - suffix,
    otherStart: start,
    otherEnd: b.length - suffix,
    before: a.slice(start, a.length - suffix),
    after: b.slice(start, b.length - suffix),
  };
}
