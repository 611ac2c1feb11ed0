import { describe, expect, test } from 'vitest';
import scenario, {
  CLAIMS,
  baseline,
  patched,
  supervised,
  timestamped,
} from '../../../scenarios/claims-triage/index.js';
import { buildOf } from '../../../src/scenario/index.js';
import { thrown } from '../../support/thrown.js';
import { callTool } from './claims-fixtures.js';

describe('scenario.inputFrom', () => {
  test('turns --claim into the run input', () => {
    expect(scenario.inputFrom({ claim: 'CLM-91077' })).toEqual({ claimId: 'CLM-91077' });
  });

  test('accepts every claim of the world', () => {
    for (const { claimId } of CLAIMS) expect(scenario.inputFrom({ claim: claimId })).toEqual({ claimId });
  });

  test('rejects an unknown claim with INPUT_INVALID, listing the claims that exist', () => {
    const error = thrown(() => scenario.inputFrom({ claim: 'CLM-12345' }));
    expect(error.code).toBe('INPUT_INVALID');
    expect(error.message).toContain('CLM-12345');
    expect(error.message).toContain('CLM-91077');
  });

  test('rejects a missing claim with USAGE', () => {
    expect(thrown(() => scenario.inputFrom({})).code).toBe('USAGE');
    expect(thrown(() => scenario.inputFrom({ claim: undefined })).code).toBe('USAGE');
  });

  test('declares the claim flag it reads', () => {
    expect(Object.keys(scenario.inputFlags)).toEqual(['claim']);
  });
});

describe('the scenario definition', () => {
  test('is named claims-triage and defaults to the baseline build', () => {
    expect(scenario.name).toBe('claims-triage');
    expect(buildOf(scenario, undefined)).toBe(baseline);
  });

  test('offers baseline, patched, timestamped and supervised by name', () => {
    expect(buildOf(scenario, 'baseline')).toBe(baseline);
    expect(buildOf(scenario, 'patched')).toBe(patched);
    expect(buildOf(scenario, 'timestamped')).toBe(timestamped);
    expect(buildOf(scenario, 'supervised')).toBe(supervised);
  });

  test('opens a world with every tool some build offers: the four of baseline, and the payment of supervised', () => {
    const world = scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 });
    const offered = new Set(Object.values(scenario.builds).flatMap((build) => build.tools.map((tool) => tool.name)));
    expect(Object.keys(world.tools).sort()).toEqual([...offered].sort());
    expect([...offered]).toEqual([...baseline.tools.map((tool) => tool.name), 'issue_payment']);
  });
});

describe('scenario.summarize.response', () => {
  const summarize = (
    kind: string,
    output: Parameters<typeof callTool>[2] | Awaited<ReturnType<typeof callTool>>,
    isError = false,
  ) => scenario.summarize?.response?.(kind, { output, isError });

  test('summarizes an OCR result with the damage area, its confidence and the OCR model', async () => {
    const summary = summarize(
      'ocr_document',
      await callTool('2026-03-04', 'ocr_document', { document_id: 'DOC-77120' }),
    );
    expect(summary).toContain('DOC-77120');
    expect(summary).toContain('205');
    expect(summary).toContain('0.38');
    expect(summary).toContain('v1');
  });

  test('summarizes a policy with its deductible', async () => {
    const summary = summarize('fetch_policy', await callTool('2026-03-09', 'fetch_policy', { policy_id: 'POL-2210' }));
    expect(summary).toContain('POL-2210');
    expect(summary).toContain('400');
  });

  test('summarizes a claim with its status', async () => {
    expect(summarize('fetch_claim', await callTool('2026-03-06', 'fetch_claim', { claim_id: 'CLM-91046' }))).toContain(
      'settled',
    );
  });

  test('summarizes a tool error with its message', () => {
    expect(summarize('fetch_claim', { error: 'claim CLM-1 not found' }, true)).toBe('error: claim CLM-1 not found');
  });

  test('summarizes a payment with its id, amount and payee, and says when it was only simulated', async () => {
    const paid = await callTool('2026-03-09', 'issue_payment', { claim_id: 'CLM-91002', amount: 779, currency: 'EUR' });
    expect(summarize('issue_payment', paid)).toMatch(/^PAY-[0-9a-f]{8}: EUR 779 to Dev Raman$/);
    const simulated = { payment_id: 'SIM-PAY-CLM-91002-0', amount: 779, currency: 'EUR', simulated: true };
    expect(summarize('issue_payment', simulated)).toBe('SIM-PAY-CLM-91002-0: EUR 779 (simulated)');
  });

  test('leaves model responses to the default rendering', () => {
    expect(scenario.summarize?.response?.('model', { content: [] })).toBeUndefined();
  });
});

describe('scenario.summarize: outcome and verdict', () => {
  test('reads a decision with its payout and reason, and its verdict as the decision', () => {
    const outcome = { decision: 'approve', payout: 1795, reason: 'Hail damage of 2050 cm2' };
    expect(scenario.summarize?.outcome?.(outcome)).toBe('approve, payout 1795: Hail damage of 2050 cm2');
    expect(scenario.summarize?.verdict?.(outcome)).toBe('approve');
  });

  test('reads a referral without a payout', () => {
    expect(scenario.summarize?.outcome?.({ decision: 'refer', payout: null, reason: 'low confidence' })).toBe(
      'refer: low confidence',
    );
  });

  test('leaves an outcome that is not a decision to the default rendering', () => {
    expect(scenario.summarize?.outcome?.({ judged: false })).toBeUndefined();
    expect(scenario.summarize?.verdict?.({ judged: false })).toBeUndefined();
  });
});
