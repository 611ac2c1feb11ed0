import type { Outcome, ParsedOutcome } from '../../src/index.js';

const DECISIONS = new Set(['approve', 'refer', 'deny']);

/**
 * Reads the decision the model writes as the last JSON object of its final
 * turn: `{ decision, payout, reason }`. Braces in the prose before or after it
 * do not matter.
 */
export function parseDecision(text: string): ParsedOutcome {
  const value = lastJsonObject(text);
  if (value === undefined) return { ok: false, problem: 'the final turn holds no JSON decision object' };
  const { decision, payout, reason } = value;
  if (typeof decision !== 'string' || !DECISIONS.has(decision))
    return { ok: false, problem: `unknown decision ${JSON.stringify(decision)}` };
  if (payout !== null && typeof payout !== 'number') return { ok: false, problem: 'payout must be a number or null' };
  if (typeof reason !== 'string') return { ok: false, problem: 'reason must be a string' };
  return { ok: true, outcome: { decision, payout, reason } };
}

const MAX_PARSE_ATTEMPTS = 256;

// Tries spans that end at a closing brace, latest first, and returns the first that parses to an
// object. Bounded, so that a long garbled turn full of braces cannot make parsing quadratic.
function lastJsonObject(text: string): Record<string, unknown> | undefined {
  let attempts = 0;
  // lastIndexOf treats a negative position as 0, so each loop stops explicitly after position 0.
  for (let end = text.lastIndexOf('}'); end >= 0; end = end === 0 ? -1 : text.lastIndexOf('}', end - 1)) {
    for (
      let start = text.lastIndexOf('{', end);
      start >= 0;
      start = start === 0 ? -1 : text.lastIndexOf('{', start - 1)
    ) {
      if (++attempts > MAX_PARSE_ATTEMPTS) return undefined;
      try {
        const value: unknown = JSON.parse(text.slice(start, end + 1));
        if (typeof value === 'object' && value !== null && !Array.isArray(value))
          return value as Record<string, unknown>;
      } catch {
        // not a JSON object: try a wider span
      }
    }
  }
  return undefined;
}

/** The harness's checks on a decision: an approval pays a non-negative amount; other decisions pay nothing. */
export function validateDecision(outcome: Outcome): readonly string[] {
  const { decision, payout } = outcome;
  if (decision === 'approve') {
    if (typeof payout !== 'number') return ['an approval must state a payout'];
    if (payout < 0) return [`payout ${payout} is negative: an approval cannot pay less than nothing`];
    return [];
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a hook's source is part of the build's code hash: rewriting it would change the hash of every build
  return payout === null ? [] : [`a ${String(decision)} decision must not pay (payout ${String(payout)})`];
}
