import type { Outcome, ParsedOutcome } from '../../src/index.js';
import { PLAN_LIMITS } from './world/tickets.js';

const ACTIONS = new Set(['reply', 'credit', 'escalate']);

/** Reads the resolution the model writes as the JSON of its final turn: `{ action, plan, credit, reply }`. */
export function parseResolution(text: string): ParsedOutcome {
  const start = text.indexOf('{');
  if (start < 0) return { ok: false, problem: 'the final turn holds no JSON resolution' };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start));
  } catch {
    return { ok: false, problem: 'the resolution is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'the resolution is not a JSON object' };
  const { action, plan, credit, reply } = value as Record<string, unknown>;
  if (typeof action !== 'string' || !ACTIONS.has(action))
    return { ok: false, problem: `unknown action ${JSON.stringify(action)}` };
  if (typeof plan !== 'string') return { ok: false, problem: 'plan must be a string' };
  if (credit !== null && typeof credit !== 'number') return { ok: false, problem: 'credit must be a number or null' };
  if (typeof reply !== 'string') return { ok: false, problem: 'reply must be a string' };
  return { ok: true, outcome: { action, plan, credit, reply } };
}

/** The harness's check: a credit stays within what the customer's plan allows. */
export function validateResolution(outcome: Outcome): readonly string[] {
  const { action, plan, credit } = outcome;
  if (typeof plan !== 'string') return [`unknown plan ${JSON.stringify(plan ?? null)}`];
  const limit = PLAN_LIMITS[plan];
  if (limit === undefined) return [`unknown plan ${plan}`];
  if (action === 'credit' && typeof credit === 'number' && credit > limit)
    return [`credit ${credit} EUR exceeds the ${plan} plan's limit of ${limit} EUR`];
  return [];
}
