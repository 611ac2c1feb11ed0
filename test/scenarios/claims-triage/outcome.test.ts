import { describe, expect, test } from 'vitest';
import { parseDecision, validateDecision } from '../../../scenarios/claims-triage/outcome.js';

describe('parseDecision', () => {
  test('reads the JSON decision line that follows the prose of the final turn', () => {
    const parsed = parseDecision(
      'Assessment complete.\n{"decision":"approve","payout":1903,"reason":"Hail damage of 2050 cm2."}',
    );
    expect(parsed).toEqual({
      ok: true,
      outcome: { decision: 'approve', payout: 1903, reason: 'Hail damage of 2050 cm2.' },
    });
  });

  test('reads the last JSON object even when the prose around it holds braces', () => {
    expect(parseDecision('Form {AR-7} read.\n{"decision":"refer","payout":null,"reason":"r"}')).toEqual({
      ok: true,
      outcome: { decision: 'refer', payout: null, reason: 'r' },
    });
    expect(parseDecision('{"decision":"deny","payout":null,"reason":"r"}\n(see note})').ok).toBe(true);
    expect(
      parseDecision(
        'draft {"decision":"approve","payout":1,"reason":"a"} final {"decision":"refer","payout":null,"reason":"b"}',
      ),
    ).toMatchObject({
      outcome: { decision: 'refer' },
    });
  });

  test('accepts a null payout', () => {
    const parsed = parseDecision('{"decision": "refer", "payout": null, "reason": "disputed"}');
    expect(parsed).toEqual({ ok: true, outcome: { decision: 'refer', payout: null, reason: 'disputed' } });
  });

  test.each(['approve', 'refer', 'deny'])('accepts the decision %s', (decision) => {
    expect(parseDecision(JSON.stringify({ decision, payout: null, reason: 'r' })).ok).toBe(true);
  });

  test('rejects a final turn without JSON', () => {
    expect(parseDecision('I approve this claim and pay EUR 1903.').ok).toBe(false);
  });

  test('rejects malformed JSON', () => {
    expect(parseDecision('{decision: approve, payout: 100}')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/JSON/),
    });
  });

  test('rejects an opening brace that is never closed', () => {
    expect(parseDecision('Decision follows.\n{"decision":"approve","payout":12').ok).toBe(false);
  });

  test('rejects a decision outside approve, refer and deny, naming it', () => {
    expect(parseDecision('{"decision":"escalate","payout":null,"reason":"r"}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('escalate'),
    });
  });

  test('rejects a missing decision', () => {
    expect(parseDecision('{"payout":null,"reason":"r"}').ok).toBe(false);
  });

  test('rejects a payout that is neither a number nor null', () => {
    expect(parseDecision('{"decision":"approve","payout":"1903","reason":"r"}').ok).toBe(false);
  });

  test('rejects a decision without a reason', () => {
    expect(parseDecision('{"decision":"refer","payout":null}').ok).toBe(false);
  });

  test('rejects an empty JSON object', () => {
    expect(parseDecision('Decision: {} is empty').ok).toBe(false);
  });
});

describe('validateDecision', () => {
  test('accepts an approval with a positive payout', () => {
    expect(validateDecision({ decision: 'approve', payout: 1903, reason: 'r' })).toEqual([]);
  });

  test('accepts an approval that pays nothing', () => {
    expect(validateDecision({ decision: 'approve', payout: 0, reason: 'r' })).toEqual([]);
  });

  test('reports a negative payout on an approval, naming the amount', () => {
    const problems = validateDecision({ decision: 'approve', payout: -234, reason: 'r' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('-234');
  });

  test('reports an approval without a payout', () => {
    expect(validateDecision({ decision: 'approve', payout: null, reason: 'r' })).toHaveLength(1);
  });

  test.each(['refer', 'deny'])('accepts %s without a payout', (decision) => {
    expect(validateDecision({ decision, payout: null, reason: 'r' })).toEqual([]);
  });

  test.each(['refer', 'deny'])('reports %s with a payout', (decision) => {
    expect(validateDecision({ decision, payout: 500, reason: 'r' })).toHaveLength(1);
  });
});
