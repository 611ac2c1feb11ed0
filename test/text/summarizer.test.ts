import { describe, expect, it } from 'vitest';
import { oneLine, summarizerOf } from '../../src/text/summarizer.js';
import { scenario } from '../support/incident.js';

const asks = { content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { id: 'A-1' } }] };
const writes = { content: [{ type: 'text', text: 'All\n done.' }] };

describe('the generic summarizer (no scenario)', () => {
  const generic = summarizerOf();

  it("reads a model's asks and words, and a tool's answer as compact JSON", () => {
    expect(generic.step({ kind: 'model', response: asks })).toBe('asks lookup {"id":"A-1"}');
    expect(generic.step({ kind: 'model', response: writes })).toBe('writes All done.');
    expect(generic.step({ kind: 'lookup', response: { output: { n: 1 }, isError: false } })).toBe(
      '{"output":{"n":1},"isError":false}',
    );
  });

  it('reads an outcome as compact JSON and calls it completed', () => {
    expect(generic.outcome({ decision: 'approve', payout: 10 })).toBe('{"decision":"approve","payout":10}');
    expect(generic.verdict({ decision: 'approve' })).toBe('completed');
    expect(generic.outcome(null)).toBe('no outcome');
  });

  it('says a structural replay judged no outcome', () => {
    expect(generic.outcome({ judged: false })).toMatch(/^the trajectory held/);
  });
});

describe("a scenario's summarize", () => {
  const claims = summarizerOf(scenario);

  it('reads its tools and outcomes in its own words', () => {
    const policy = { policy_id: 'POL-1', deductible: 500, cover_limit: 15000, currency: 'EUR' };
    expect(claims.step({ kind: 'fetch_policy', response: { output: policy, isError: false } })).toBe(
      'POL-1: deductible 500, cover 15000 EUR',
    );
    expect(claims.outcome({ decision: 'approve', payout: 1795, reason: 'hail' })).toBe('approve, payout 1795: hail');
    expect(claims.verdict({ decision: 'refer' })).toBe('refer');
  });

  it('falls back to the generic summary where it says nothing', () => {
    expect(claims.step({ kind: 'model', response: asks })).toBe('asks lookup {"id":"A-1"}');
    expect(claims.verdict({ note: 'no decision' })).toBe('completed');
  });
});

describe('oneLine', () => {
  it('flattens whitespace and cuts with an ellipsis', () => {
    expect(oneLine('a\n  b', 10)).toBe('a b');
    expect(oneLine('abcdefghij', 5)).toBe('abcd…');
  });
});
