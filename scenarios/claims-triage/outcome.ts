import type { Outcome, ParsedOutcome } from '../../src/index.js';

const DECISIONS = new Set(['approve', 'refer', 'deny']);

/**
 * Reads the decision the model writes as the last JSON object of its final
 * turn: `{ decision, payout, reason }`.
 */
export function parseDecision(text: string): ParsedOutcome {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, problem: 'the final turn holds no JSON decision' };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { ok: false, problem: 'the decision is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'the decision is not an object' };
  const { decision, payout, reason } = value as Record<string, unknown>;
  if (typeof decision !== 'string' || !DECISIONS.has(decision)) return { ok: false, problem: `unknown decision ${JSON.stringify(decision)}` };
  if (payout !== null && typeof payout !== 'number') return { ok: false, problem: 'payout must be a number or null' };
  if (typeof reason !== 'string') return { ok: false, problem: 'reason must be a string' };
  return { ok: true, outcome: { decision, payout, reason } };
}

/** The harness's checks on a decision: an approval pays a non-negative amount; other decisions pay nothing. */
export function validateDecision(outcome: Outcome): readonly string[] {
  const { decision, payout } = outcome;
  if (decision === 'approve') {
    if (typeof payout !== 'number') return ['an approval must state a payout'];
    if (payout < 0) return [`payout ${payout} is negative: an approval cannot pay less than nothing`];
    return [];
  }
  return payout === null ? [] : [`a ${String(decision)} decision must not pay (payout ${String(payout)})`];
}
