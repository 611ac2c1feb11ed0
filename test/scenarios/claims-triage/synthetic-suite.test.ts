import { describe, expect, test } from 'vitest';
import { baseline, patched } from '../../../scenarios/claims-triage/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import type { RecordResult } from '../../../src/modes/index.js';
import type { SyntheticCase } from '../../../src/scenario/index.js';
import { isJsonArray, isJsonObject } from '../../../src/json/index.js';
import { fieldText } from '../../support/field-text.js';
import { thrown } from '../../support/thrown.js';
import { caseFiles, caseJson, documentsOf, loadCases, recordCase, synthetic } from './synthetic-fixtures.js';

/** The harness paths the suite must cover, written out here so that the suite's own list cannot shrink unnoticed. */
const REQUIRED_PATHS = [
  'approve',
  'approve-low-confidence',
  'refer-low-confidence',
  'deny-not-covered',
  'deny-settled',
  'refer-disputed',
  'refer-over-cover-limit',
  'negative-payout-guard',
  'ocr-timeout-retried',
  'ocr-timeout-exhausted',
  'multiple-documents',
  'policy-amended',
  'decimal-reading',
  'step-cap',
];

const CASES = loadCases();
const byId = (id: string): SyntheticCase => {
  const found = CASES.find((testCase) => testCase.id === id);
  if (found === undefined) throw new Error(`no case ${id}`);
  return found;
};
const withPath = (path: string): SyntheticCase[] => CASES.filter((testCase) => testCase.paths.includes(path));
const score = (testCase: SyntheticCase, run: RecordResult) => synthetic().score(testCase, run);

describe('the synthetic claims', () => {
  test('are at least 40 files, every one of which parses', () => {
    const files = caseFiles();
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const { file, value } of files) expect(synthetic().parseCase(value, file).file).toBe(file);
  });

  test.each(REQUIRED_PATHS)('cover the path %s', (path) => {
    expect(withPath(path).length).toBeGreaterThanOrEqual(1);
  });

  test('hold at least five correct low-confidence readings, the cost of the patched guard to size', () => {
    expect(withPath('approve-low-confidence').length).toBeGreaterThanOrEqual(5);
  });

  test('have unique case ids, claim ids, policy ids and document ids', () => {
    const ids = CASES.map((testCase) => testCase.id);
    const claimIds = CASES.map((testCase) => fieldText(testCase.input.claimId));
    const policyIds = CASES.map((testCase) =>
      fieldText(isJsonObject(testCase.data.policy) ? testCase.data.policy.policyId : ''),
    );
    const documentIds = CASES.flatMap((testCase) =>
      documentsOf(testCase).map((document) => fieldText(document.documentId)),
    );
    for (const list of [ids, claimIds, policyIds, documentIds]) expect(new Set(list).size).toBe(list.length);
  });

  test('name their claims in the form the simulated model looks for', () => {
    for (const testCase of CASES) expect(testCase.input.claimId).toMatch(/^CLM-\d+$/);
  });
});

describe('the synthetic claims recorded with baseline (seed 1)', () => {
  test.each(CASES.map((testCase) => [testCase.id, testCase] as const))('%s scores pass', async (_id, testCase) => {
    const run = await recordCase(testCase, baseline);
    const verdict = score(testCase, run);
    expect(verdict, `${testCase.file}: expected ${verdict.expected}, got ${verdict.actual}`).toMatchObject({
      pass: true,
    });
  });

  test.each(withPath('step-cap').map((testCase) => [testCase.id, testCase] as const))(
    '%s stops at the cap of 24 steps',
    async (_id, testCase) => {
      const run = await recordCase(testCase, baseline);
      expect(run.error).toMatchObject({ code: 'STEP_CAP_REACHED', step: baseline.stepCap });
      expect(run.steps).toHaveLength(baseline.stepCap);
    },
  );
});

describe('the synthetic claims recorded with patched (seed 1)', () => {
  test('fail exactly the correct low-confidence readings, which patched refers', async () => {
    const failing: string[] = [];
    const outcomes = new Map<string, JsonObject | null>();
    for (const testCase of CASES) {
      const run = await recordCase(testCase, patched);
      if (!score(testCase, run).pass) failing.push(testCase.id);
      outcomes.set(testCase.id, run.outcome);
    }
    const lowConfidence = withPath('approve-low-confidence').map((testCase) => testCase.id);
    expect(failing.sort()).toEqual([...lowConfidence].sort());
    for (const id of lowConfidence) expect(outcomes.get(id), id).toMatchObject({ decision: 'refer', payout: null });
  });
});

describe('OCR timeouts', () => {
  // Each form is tried until it answers or three attempts have failed; every attempt is a step.
  const attemptsOf = (testCase: SyntheticCase): { attempts: number; failures: number } => {
    const forms = documentsOf(testCase).filter((document) => document.kind === 'assessor_form');
    const timeouts = forms.map((document) => (typeof document.timeouts === 'number' ? document.timeouts : 0));
    return {
      attempts: timeouts.reduce((sum, count) => sum + Math.min(count + 1, 3), 0),
      failures: timeouts.reduce((sum, count) => sum + Math.min(count, 3), 0),
    };
  };
  // Step-cap cases stop before every form is read.
  const timeoutCases = [...withPath('ocr-timeout-retried'), ...withPath('ocr-timeout-exhausted')].filter(
    (testCase) => !testCase.paths.includes('step-cap'),
  );

  test.each(timeoutCases.map((testCase) => [testCase.id, testCase] as const))(
    '%s takes one ocr_document step per attempt',
    async (_id, testCase) => {
      const run = await recordCase(testCase, baseline);
      const ocrSteps = run.steps.filter((step) => step.kind === 'ocr_document');
      const failed = ocrSteps.filter((step) => isJsonObject(step.response) && step.response.isError === true);
      const { attempts, failures } = attemptsOf(testCase);
      expect(ocrSteps).toHaveLength(attempts);
      expect(failed).toHaveLength(failures);
      for (const step of failed) expect(JSON.stringify(step.response)).toContain('timed out');
    },
  );

  test('a form that times out once costs one step more than the usual nine', async () => {
    const run = await recordCase(byId('SYN-35'), baseline);
    expect(run.steps.map((step) => step.kind)).toEqual([
      'model',
      'fetch_claim',
      'model',
      'ocr_document',
      'ocr_document',
      'model',
      'estimate_repair',
      'model',
      'fetch_policy',
      'model',
    ]);
    expect(run.outcome).toMatchObject({ decision: 'approve' });
  });

  test('after three failed attempts the model sees the timeout and refers', async () => {
    const run = await recordCase(byId('SYN-38'), baseline);
    expect(run.steps.map((step) => step.kind)).toEqual([
      'model',
      'fetch_claim',
      'model',
      'ocr_document',
      'ocr_document',
      'ocr_document',
      'model',
    ]);
    expect(run.outcome).toMatchObject({ decision: 'refer', payout: null });
    expect(fieldText(run.outcome?.reason)).toContain('timed out');
  });
});

describe('a malformed case', () => {
  const FILE = 'syn-01-hail-approve.json';

  /** A copy of `value` with the field at `path` replaced, or removed when `replacement` is undefined. */
  function withField(
    value: JsonValue,
    path: readonly (string | number)[],
    replacement: JsonValue | undefined,
  ): JsonValue | undefined {
    const [key, ...rest] = path;
    if (key === undefined) return replacement;
    if (isJsonArray(value) && typeof key === 'number') {
      return value.map((entry, index) => (index === key ? (withField(entry, rest, replacement) ?? null) : entry));
    }
    if (!isJsonObject(value) || typeof key !== 'string') throw new Error(`no field ${String(key)} to replace`);
    const { [key]: current, ...others } = value;
    const changed = withField(current ?? null, rest, replacement);
    return changed === undefined ? others : { ...others, [key]: changed };
  }

  test.each<[string, readonly (string | number)[], JsonValue | undefined, string]>([
    ['a missing field', ['claim', 'peril'], undefined, 'claim.peril is missing'],
    ['a missing section', ['policy'], undefined, 'policy is missing'],
    ['a number written as a string', ['policy', 'deductible'], '500', 'policy.deductible must be a number'],
    ['a date that is not on the calendar', ['at'], '2026-02-30', 'at must be a calendar date'],
    ['a date in another format', ['at'], '04/03/2026', 'at must be a calendar date'],
    ['a peril nobody covers', ['claim', 'peril'], 'meteor', 'claim.peril must be one of'],
    ['a claim id the model cannot find', ['claim', 'claimId'], 'claim-1', 'claim.claimId must be a string like CLM-'],
    ['a misspelt field', ['documents', 0, 'timeout'], 1, 'has unknown field timeout'],
    ['an unknown path', ['paths'], ['approve', 'aprove'], 'paths[1] must be one of'],
    [
      'a confidence above 1',
      ['documents', 0, 'ocr', 'confidence'],
      93,
      'documents[0].ocr.confidence must be a number from 0 to 1',
    ],
    ['a fractional timeout count', ['documents', 0, 'timeouts'], 1.5, 'documents[0].timeouts must be an integer'],
    ['a claim on another policy', ['claim', 'policyId'], 'POL-S99', 'claim.policyId is POL-S99'],
    [
      'an e-mail address that could be real',
      ['claim', 'holderEmail'],
      'someone@gmail.com',
      'claim.holderEmail must be a string like',
    ],
    [
      'a timeline out of order',
      ['policy', 'deductible'],
      [
        { from: '2026-03-02', value: 400 },
        { from: '0000-01-01', value: 250 },
      ],
      'policy.deductible[1].from',
    ],
    [
      'a timeline that starts after the case',
      ['claim', 'status'],
      [{ from: '2026-03-10', value: 'open' }],
      'claim.status[0].from is 2026-03-10',
    ],
    [
      'a reading on a photo report',
      ['documents', 0, 'kind'],
      'photo_report',
      'documents[0].ocr is given on a photo_report',
    ],
    [
      'an approval that would pay less than nothing',
      ['expected', 'payout', 'min'],
      -10,
      'expected.payout.min must be a number of at least 0',
    ],
    [
      'a payout range upside down',
      ['expected', 'payout', 'max'],
      400,
      'expected.payout.max must be a number of at least 463',
    ],
    ['a failure code that does not exist', ['expected'], { failure: 'TOO_SLOW' }, 'expected.failure must be one of'],
  ])('with %s raises INPUT_INVALID naming the file and the field', (_label, path, replacement, message) => {
    const broken = withField(caseJson(FILE), path, replacement) ?? null;
    const error = thrown(() => synthetic().parseCase(broken, FILE));
    expect(error.code).toBe('INPUT_INVALID');
    expect(error.message).toContain(FILE);
    expect(error.message).toContain(message);
  });

  test('that is not an object at all raises INPUT_INVALID', () => {
    const error = thrown(() => synthetic().parseCase([1, 2, 3], 'list.json'));
    expect(error.code).toBe('INPUT_INVALID');
    expect(error.message).toMatch(/^list\.json: the case must be an object/);
  });

  test('breaks only what the table says: the same file unbroken parses', () => {
    expect(synthetic().parseCase(withField(caseJson(FILE), ['at'], '2026-03-04') ?? null, FILE).id).toBe('SYN-01');
  });
});
