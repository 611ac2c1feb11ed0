import { describe, expect, test } from 'vitest';
import { baseline, patched, timestamped } from '../../../scenarios/claims-triage/index.js';
import { parseDecision } from '../../../scenarios/claims-triage/outcome.js';
import type { AgentBuild, Outcome } from '../../../src/agent/index.js';
import type { RecordResult } from '../../../src/modes/index.js';
import type { World } from '../../../src/world/index.js';
import { isJsonArray } from '../../../src/json/index.js';
import { fieldText } from '../../support/field-text.js';
import { defineAgent } from '../../../src/agent/index.js';
import {
  INCIDENT_DAY,
  LATER_DAY,
  kindsOf,
  memoryEngine,
  modelPartsOf,
  numberAt,
  pick,
  recordClaim,
  toolNamesAskedBy,
  toolOutputOf,
} from './claims-fixtures.js';

const NINE_STEPS = [
  'model',
  'fetch_claim',
  'model',
  'ocr_document',
  'model',
  'estimate_repair',
  'model',
  'fetch_policy',
  'model',
];

/** The decision the final model step wrote, whether or not the harness accepted it. */
function writtenDecision(run: RecordResult): Outcome {
  const text = modelPartsOf(run.steps.at(-1))
    .filter((part) => part.type === 'text')
    .map((part) => fieldText(part.text))
    .join('\n');
  const parsed = parseDecision(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.outcome;
}

/** Estimate minus deductible, as read from the run's own tool results. */
function expectedPayout(run: RecordResult): number {
  const estimate = run.steps.find((step) => step.kind === 'estimate_repair');
  const policy = run.steps.find((step) => step.kind === 'fetch_policy');
  return numberAt(toolOutputOf(estimate), 'amount') - numberAt(toolOutputOf(policy), 'deductible');
}

function countingModelCalls(counter: { calls: number }): (world: World) => World {
  return (world) => ({
    tools: world.tools,
    model: {
      respond(request) {
        counter.calls++;
        return world.model.respond(request);
      },
    },
  });
}

function withParams(
  build: AgentBuild,
  name: string,
  changes: Partial<Pick<AgentBuild, 'model' | 'params'>>,
): AgentBuild {
  const { codeHash: _codeHash, ...definition } = build;
  return defineAgent({ ...definition, ...changes, build: name });
}

describe('the incident: CLM-91077 recorded on 2026-03-04 with baseline', () => {
  test.each([0, 1, 42, 65_535, 4_294_967_295])(
    'takes exactly the nine steps of the chapter and fails VALIDATION_FAILED at step 9 (seed %i)',
    async (seed) => {
      const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY, seed });
      expect(kindsOf(run)).toEqual(NINE_STEPS);
      expect(run.steps.map((step) => step.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(run.status).toBe('failed');
      expect(run.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 9 });
      expect(run.outcome).toBeNull();
    },
  );

  test('is recorded as mode record, with its date and seed, every step live', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY, seed: 7 });
    expect(run.mode).toBe('record');
    expect(run.worldAt).toBe(INCIDENT_DAY);
    expect(run.seed).toBe(7);
    expect(run.agent.build).toBe('baseline');
    expect(new Set(run.steps.map((step) => step.provenance))).toEqual(new Set(['live']));
  });

  test('counts each kind from 0: model#0..model#4 and one call of each tool', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY });
    expect(run.steps.map((step) => `${step.kind}#${step.index}`)).toEqual([
      'model#0',
      'fetch_claim#0',
      'model#1',
      'ocr_document#0',
      'model#2',
      'estimate_repair#0',
      'model#3',
      'fetch_policy#0',
      'model#4',
    ]);
  });

  test('step 4 is the OCR result 205 at confidence 0.38 from OCR v1', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY });
    const ocr = toolOutputOf(run.steps[3]);
    expect(ocr.document_id).toBe('DOC-77120');
    expect(ocr.ocr_model).toBe('v1');
    expect(pick(ocr, 'fields', 'damage_area_cm2')).toEqual({ value: 205, confidence: 0.38 });
  });

  test('the model estimates the area OCR read, for the peril of the claim', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY });
    expect(pick(run.steps[5]?.request, 'input', 'damage_area_cm2')).toBe(205);
    expect(pick(run.steps[5]?.request, 'input', 'peril')).toBe(pick(toolOutputOf(run.steps[1]), 'peril'));
  });

  test('step 9 approves a payout of estimate minus deductible, which is negative', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY });
    const decision = writtenDecision(run);
    expect(decision.decision).toBe('approve');
    expect(decision.payout).toBe(expectedPayout(run));
    expect(expectedPayout(run)).toBeLessThan(0);
    expect(run.error?.message).toContain(fieldText(decision.payout));
  });
});

describe('CLM-91077 re-executed on 2026-03-09, after the OCR upgrade', () => {
  test.each([0, 1, 42])('baseline approves a positive payout (seed %i)', async (seed) => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: LATER_DAY, seed });
    expect(run.status).toBe('completed');
    expect(run.error).toBeNull();
    expect(run.outcome).toMatchObject({ decision: 'approve' });
    expect(numberAt(run.outcome, 'payout')).toBeGreaterThan(0);
    expect(numberAt(run.outcome, 'payout')).toBe(expectedPayout(run));
  });

  test('step 4 reads 2050 at confidence 0.97 from OCR v2', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: LATER_DAY });
    expect(pick(toolOutputOf(run.steps[3]), 'fields', 'damage_area_cm2')).toEqual({ value: 2050, confidence: 0.97 });
  });

  test('patched approves too, with the same outcome as baseline: its guard never fires', async () => {
    const fixed = await recordClaim({ claimId: 'CLM-91077', at: LATER_DAY, agent: patched });
    const control = await recordClaim({ claimId: 'CLM-91077', at: LATER_DAY, agent: baseline });
    expect(kindsOf(fixed)).toEqual(NINE_STEPS);
    expect(fixed.outcome).toEqual(control.outcome);
  });
});

describe('CLM-91077 on 2026-03-04 with patched', () => {
  test('completes at step 4 with a referral and no payout', async () => {
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY, agent: patched });
    expect(run.status).toBe('completed');
    expect(kindsOf(run)).toEqual(['model', 'fetch_claim', 'model', 'ocr_document']);
    expect(run.outcome).toMatchObject({ decision: 'refer', payout: null });
    expect(run.error).toBeNull();
  });

  test('makes no further model call after the low-confidence OCR result', async () => {
    const counter = { calls: 0 };
    await recordClaim({
      claimId: 'CLM-91077',
      at: INCIDENT_DAY,
      agent: patched,
      wrapWorld: countingModelCalls(counter),
    });
    expect(counter.calls).toBe(2);
  });

  test('the baseline run under the same counter makes five model calls', async () => {
    const counter = { calls: 0 };
    await recordClaim({
      claimId: 'CLM-91077',
      at: INCIDENT_DAY,
      agent: baseline,
      wrapWorld: countingModelCalls(counter),
    });
    expect(counter.calls).toBe(5);
  });
});

describe('timestamped', () => {
  const tenOClock = () => new Date('2026-03-04T10:00:00Z');

  test("puts the injected clock's time into the run's system prompt", async () => {
    const engine = memoryEngine(tenOClock);
    const run = await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY, agent: timestamped, engine });
    expect((await engine.checkpoint(run.runId, 0)).context.system).toContain('2026-03-04T10:00:00.000Z');
    expect(fieldText(pick(run.steps[0]?.request, 'system'))).toContain('2026-03-04T10:00:00.000Z');
  });

  test("its model#0 request hash differs from baseline's, which is the same whatever the seed", async () => {
    const engine = memoryEngine(tenOClock);
    const baselineHashes = await Promise.all(
      [1, 2, 3].map(
        async (seed) =>
          (await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY, seed, engine })).steps[0]?.requestHash,
      ),
    );
    const stamped = (await recordClaim({ claimId: 'CLM-91077', at: INCIDENT_DAY, agent: timestamped, engine })).steps[0]
      ?.requestHash;
    expect(new Set(baselineHashes).size).toBe(1);
    expect(baselineHashes[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(stamped).toMatch(/^[0-9a-f]{16}$/);
    expect(stamped).not.toBe(baselineHashes[0]);
  });

  test('its model#0 request hash changes with the clock', async () => {
    const at10 = await recordClaim({
      claimId: 'CLM-91077',
      at: INCIDENT_DAY,
      agent: timestamped,
      engine: memoryEngine(tenOClock),
    });
    const at11 = await recordClaim({
      claimId: 'CLM-91077',
      at: INCIDENT_DAY,
      agent: timestamped,
      engine: memoryEngine(() => new Date('2026-03-04T11:00:00Z')),
    });
    expect(at11.steps[0]?.requestHash).not.toBe(at10.steps[0]?.requestHash);
  });

  test('otherwise behaves as baseline: the incident still fails at step 9', async () => {
    const run = await recordClaim({
      claimId: 'CLM-91077',
      at: INCIDENT_DAY,
      agent: timestamped,
      engine: memoryEngine(tenOClock),
    });
    expect(kindsOf(run)).toEqual(NINE_STEPS);
    expect(run.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 9 });
  });
});

describe('every kind of ending occurs on some claim and date', () => {
  test.each([
    ['CLM-91077', LATER_DAY, 'approve'],
    ['CLM-91103', INCIDENT_DAY, 'approve'],
    ['CLM-91069', INCIDENT_DAY, 'refer'],
    ['CLM-91024', INCIDENT_DAY, 'refer'],
    ['CLM-91013', INCIDENT_DAY, 'deny'],
    ['CLM-91046', '2026-03-06', 'deny'],
  ])('%s on %s completes with decision %s', async (claimId, at, decision) => {
    const run = await recordClaim({ claimId, at });
    expect(run.status).toBe('completed');
    expect(run.outcome).toMatchObject({ decision });
  });

  test('CLM-91035 approves a negative payout and fails VALIDATION_FAILED at its last step', async () => {
    const run = await recordClaim({ claimId: 'CLM-91035', at: INCIDENT_DAY });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'VALIDATION_FAILED', step: run.steps.length });
    expect(writtenDecision(run).payout).toBeLessThan(0);
  });

  test('approvals pay estimate minus deductible', async () => {
    const run = await recordClaim({ claimId: 'CLM-91103', at: INCIDENT_DAY });
    expect(numberAt(run.outcome, 'payout')).toBe(expectedPayout(run));
  });

  test('referrals and denials pay nothing', async () => {
    for (const [claimId, at] of [
      ['CLM-91069', INCIDENT_DAY],
      ['CLM-91013', INCIDENT_DAY],
    ] as const) {
      expect((await recordClaim({ claimId, at })).outcome).toMatchObject({ payout: null });
    }
  });
});

describe('re-executions see the world drift', () => {
  test('CLM-91046 is approved while open and denied from 2026-03-06 without reading its form', async () => {
    const open = await recordClaim({ claimId: 'CLM-91046', at: '2026-03-05' });
    const settled = await recordClaim({ claimId: 'CLM-91046', at: '2026-03-06' });
    expect(open.outcome).toMatchObject({ decision: 'approve' });
    expect(settled.outcome).toMatchObject({ decision: 'deny', payout: null });
    expect(kindsOf(settled)).toEqual(['model', 'fetch_claim', 'model']);
  });

  test('CLM-91002 pays 150 less from 2026-03-07, when POL-2210 raised its deductible from 250 to 400', async () => {
    const before = await recordClaim({ claimId: 'CLM-91002', at: '2026-03-06' });
    const after = await recordClaim({ claimId: 'CLM-91002', at: '2026-03-07' });
    expect(numberAt(before.outcome, 'payout') - numberAt(after.outcome, 'payout')).toBe(150);
  });

  test('CLM-91077 gets another estimate from 2026-03-08, when the price list changed', async () => {
    const before = await recordClaim({ claimId: 'CLM-91077', at: '2026-03-07' });
    const after = await recordClaim({ claimId: 'CLM-91077', at: '2026-03-08' });
    expect(pick(before.steps[5]?.request, 'input')).toEqual(pick(after.steps[5]?.request, 'input'));
    expect(toolOutputOf(after.steps[5]).amount).not.toBe(toolOutputOf(before.steps[5]).amount);
  });

  test('patched refers CLM-91058 before its form was re-scanned and approves it after', async () => {
    const before = await recordClaim({ claimId: 'CLM-91058', at: '2026-03-07', agent: patched });
    const after = await recordClaim({ claimId: 'CLM-91058', at: '2026-03-08', agent: patched });
    expect(before.outcome).toMatchObject({ decision: 'refer' });
    expect(before.steps).toHaveLength(4);
    expect(after.outcome).toMatchObject({ decision: 'approve' });
  });
});

describe('CLM-91080, with two assessor forms', () => {
  test('the model asks for both OCR reads in one turn, in the order the claim lists the forms', async () => {
    const run = await recordClaim({ claimId: 'CLM-91080', at: INCIDENT_DAY });
    const listed = pick(toolOutputOf(run.steps[1]), 'documents');
    expect(toolNamesAskedBy(run.steps[2])).toEqual(['ocr_document', 'ocr_document']);
    expect(run.steps.slice(3, 5).map((step) => [step.kind, step.index])).toEqual([
      ['ocr_document', 0],
      ['ocr_document', 1],
    ]);
    const read = run.steps.slice(3, 5).map((step) => toolOutputOf(step).document_id);
    expect(read).toEqual((isJsonArray(listed) ? listed : []).map((document) => pick(document, 'document_id')));
  });

  test('the estimate covers the sum of the two areas read, and the run approves', async () => {
    const run = await recordClaim({ claimId: 'CLM-91080', at: INCIDENT_DAY });
    const areas = run.steps
      .slice(3, 5)
      .map((step) => numberAt(toolOutputOf(step), 'fields', 'damage_area_cm2', 'value'));
    const estimate = run.steps.find((step) => step.kind === 'estimate_repair');
    expect(pick(estimate?.request, 'input', 'damage_area_cm2')).toBe(areas[0]! + areas[1]!);
    expect(run.outcome).toMatchObject({ decision: 'approve' });
    expect(run.steps).toHaveLength(10);
  });
});

describe('sampling parameters in a build', () => {
  test('on claude-opus-5 the first model call is PROVIDER_REJECTED and the run fails before any step', async () => {
    const hot = withParams(baseline, 'hot', { params: { maxTokens: 2048, temperature: 0.2 } });
    const run = await recordClaim({ claimId: 'CLM-91077', at: LATER_DAY, agent: hot });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'PROVIDER_REJECTED', step: 1 });
    expect(run.steps).toHaveLength(0);
  });

  test('on claude-sonnet-5 the same parameters are accepted and the run completes', async () => {
    const hot = withParams(baseline, 'hot-sonnet', {
      model: 'claude-sonnet-5',
      params: { maxTokens: 2048, temperature: 0.2 },
    });
    const run = await recordClaim({ claimId: 'CLM-91077', at: LATER_DAY, agent: hot });
    expect(run.status).toBe('completed');
    expect(run.outcome).toMatchObject({ decision: 'approve' });
  });
});
