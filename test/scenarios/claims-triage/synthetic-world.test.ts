import { describe, expect, test } from 'vitest';
import { CLAIMS, openClaimsWorld } from '../../../scenarios/claims-triage/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import type { SyntheticCase, SyntheticRunResult } from '../../../src/scenario/index.js';
import type { World } from '../../../src/world/index.js';
import { fieldText } from '../../support/field-text.js';
import { pick } from './claims-fixtures.js';
import { caseJson, synthetic } from './synthetic-fixtures.js';

const parse = (file: string, change: (value: JsonObject) => void = () => {}): SyntheticCase => {
  const value = caseJson(file);
  change(value);
  return synthetic().parseCase(value, file);
};
const worldOf = (testCase: SyntheticCase, at = testCase.at): World =>
  synthetic().openWorld(testCase, { at, seed: 1, latencyMs: 0 });

async function call(world: World, tool: string, input: JsonObject): Promise<JsonValue> {
  const handler = world.tools[tool];
  if (handler === undefined) throw new Error(`no tool ${tool}`);
  return handler(input);
}

describe('a synthetic case as parsed', () => {
  test('runs on the claim it describes, on its day, with its expectation as written', () => {
    const testCase = parse('syn-01-hail-approve.json');
    expect(testCase).toMatchObject({
      id: 'SYN-01',
      file: 'syn-01-hail-approve.json',
      at: '2026-03-04',
      paths: ['approve'],
    });
    expect(testCase.input).toEqual({ claimId: 'CLM-95001' });
    expect(testCase.expected).toEqual({ decision: 'approve', payout: { min: 463, max: 465 } });
  });
});

describe('the world of a synthetic case', () => {
  test("answers fetch_claim in the shape of the recorded world, with the case's claim", async () => {
    const synthetic = await call(worldOf(parse('syn-01-hail-approve.json')), 'fetch_claim', { claim_id: 'CLM-95001' });
    const recorded = await call(openClaimsWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }), 'fetch_claim', {
      claim_id: 'CLM-91002',
    });
    expect(Object.keys(synthetic as JsonObject)).toEqual(Object.keys(recorded as JsonObject));
    expect(synthetic).toMatchObject({
      claim_id: 'CLM-95001',
      policy_id: 'POL-S01',
      status: 'open',
      peril: 'hail',
      holder: 'Ada Placeholder',
    });
    expect(pick(synthetic, 'documents')).toEqual([{ document_id: 'DOC-S0101', kind: 'assessor_form' }]);
  });

  test('knows only its own claim', async () => {
    await expect(
      call(worldOf(parse('syn-01-hail-approve.json')), 'fetch_claim', { claim_id: 'CLM-91077' }),
    ).rejects.toThrow(/CLM-91077 not found/);
  });

  test("shows the holder's e-mail in fetch_claim and in the statement when the case gives one", async () => {
    const claim = await call(worldOf(parse('syn-06-hail-approve-with-email.json')), 'fetch_claim', {
      claim_id: 'CLM-95006',
    });
    expect(pick(claim, 'holder_email')).toBe('fenn.dummyford@example.com');
    expect(fieldText(pick(claim, 'statement'))).toContain('fenn.dummyford@example.com');
  });

  test('leaves holder_email out when the case gives none, as the recorded world always does', async () => {
    const claim = await call(worldOf(parse('syn-01-hail-approve.json')), 'fetch_claim', { claim_id: 'CLM-95001' });
    expect(claim).not.toHaveProperty('holder_email');
    const recorded = openClaimsWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 });
    for (const { claimId } of CLAIMS)
      expect(await call(recorded, 'fetch_claim', { claim_id: claimId })).not.toHaveProperty('holder_email');
  });

  test.each([
    ['2026-03-04', 'v1'],
    ['2026-03-05', 'v2'],
  ])('reads the same value on %s, labelled OCR %s', async (at, model) => {
    const read = await call(worldOf(parse('syn-11-hail-faint-reading.json'), at), 'ocr_document', {
      document_id: 'DOC-S1101',
    });
    expect(pick(read, 'ocr_model')).toBe(model);
    expect(pick(read, 'fields', 'damage_area_cm2')).toEqual({ value: 1200, confidence: 0.42 });
  });

  test('reads a photo report without a damage area', async () => {
    const read = await call(worldOf(parse('syn-10-collision-approve-with-photos.json')), 'ocr_document', {
      document_id: 'DOC-S1002',
    });
    expect(pick(read, 'fields', 'damage_area_cm2')).toBeUndefined();
    expect(pick(read, 'fields', 'photo_count')).toBeDefined();
  });

  test('prices repairs as the recorded world does on the same day', async () => {
    for (const at of ['2026-03-04', '2026-03-09']) {
      const input = { damage_area_cm2: 612.5, peril: 'hail' };
      const recorded = await call(openClaimsWorld({ at, seed: 1, latencyMs: 0 }), 'estimate_repair', input);
      expect(await call(worldOf(parse('syn-47-hail-decimal-area.json'), at), 'estimate_repair', input)).toEqual(
        recorded,
      );
    }
  });

  test('applies the deductible in force on the day', async () => {
    const testCase = parse('syn-44-collision-deductible-raised.json');
    expect(
      pick(await call(worldOf(testCase, '2026-03-01'), 'fetch_policy', { policy_id: 'POL-S44' }), 'deductible'),
    ).toBe(250);
    expect(
      pick(await call(worldOf(testCase, '2026-03-04'), 'fetch_policy', { policy_id: 'POL-S44' }), 'deductible'),
    ).toBe(400);
  });

  test('times out the first n OCR calls on a document, then answers; each new world starts counting again', async () => {
    const testCase = parse('syn-36-collision-ocr-timeout-twice.json');
    const world = worldOf(testCase);
    const ocr = () => call(world, 'ocr_document', { document_id: 'DOC-S3601' });
    await expect(ocr()).rejects.toThrow('ocr_document timed out after 30 s');
    await expect(ocr()).rejects.toThrow('ocr_document timed out after 30 s');
    expect(pick(await ocr(), 'fields', 'damage_area_cm2')).toEqual({ value: 1100, confidence: 0.92 });
    await expect(call(worldOf(testCase), 'ocr_document', { document_id: 'DOC-S3601' })).rejects.toThrow(/timed out/);
  });

  test('counts timeouts per document', async () => {
    const world = worldOf(parse('syn-37-storm-two-forms-both-time-out.json'));
    await expect(call(world, 'ocr_document', { document_id: 'DOC-S3701' })).rejects.toThrow(/timed out/);
    await expect(call(world, 'ocr_document', { document_id: 'DOC-S3702' })).rejects.toThrow(/timed out/);
    await expect(call(world, 'ocr_document', { document_id: 'DOC-S3701' })).resolves.toMatchObject({
      document_id: 'DOC-S3701',
    });
    await expect(call(world, 'ocr_document', { document_id: 'DOC-S3702' })).rejects.toThrow(/timed out/);
    await expect(call(world, 'ocr_document', { document_id: 'DOC-S3702' })).resolves.toMatchObject({
      document_id: 'DOC-S3702',
    });
  });
});

describe('the synthetic score', () => {
  const approve = parse('syn-01-hail-approve.json'); // approve, payout 463-465
  const failure = parse('syn-32-hail-below-deductible.json'); // failed: VALIDATION_FAILED
  const completed = (outcome: JsonObject): SyntheticRunResult => ({ status: 'completed', outcome, error: null });
  const failed = (code: string): SyntheticRunResult => ({
    status: 'failed',
    outcome: null,
    error: { code, message: 'm' },
  });

  test('passes an approval paying within the range, at either end', () => {
    for (const payout of [463, 464, 465]) {
      expect(synthetic().score(approve, completed({ decision: 'approve', payout, reason: 'r' }))).toEqual({
        pass: true,
        expected: 'approve, payout 463-465',
        actual: `approve, payout ${payout}`,
      });
    }
  });

  test.each([462, 466])('fails an approval paying %i, outside the range', (payout) => {
    expect(synthetic().score(approve, completed({ decision: 'approve', payout, reason: 'r' })).pass).toBe(false);
  });

  test('fails another decision, and says which', () => {
    expect(synthetic().score(approve, completed({ decision: 'refer', payout: null, reason: 'r' }))).toEqual({
      pass: false,
      expected: 'approve, payout 463-465',
      actual: 'refer',
    });
  });

  test('passes a failure with the expected code only', () => {
    expect(synthetic().score(failure, failed('VALIDATION_FAILED'))).toEqual({
      pass: true,
      expected: 'failed: VALIDATION_FAILED',
      actual: 'failed: VALIDATION_FAILED',
    });
    expect(synthetic().score(failure, failed('STEP_CAP_REACHED')).pass).toBe(false);
    expect(synthetic().score(failure, completed({ decision: 'approve', payout: 0, reason: 'r' })).pass).toBe(false);
    expect(synthetic().score(approve, failed('VALIDATION_FAILED'))).toMatchObject({
      pass: false,
      actual: 'failed: VALIDATION_FAILED',
    });
  });
});
