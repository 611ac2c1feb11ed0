import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OCR_V2_FROM } from '../../../scenarios/claims-triage/index.js';
import { createEngine } from '../../../src/engine/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import type { StepView } from '../../../src/read/index.js';
import { sqliteStore } from '../../../src/store/index.js';
import { cli, tempFolder } from '../../support/cli-harness.js';
import { numberAt, pick, toolNamesAskedBy } from './claims-fixtures.js';

// The two weeks the demo's classes are drawn from, recorded as `record-batch --until` records them, and what
// each run met, read back from the store: the classes are asserted by what an on-call engineer can see.

const FIRST = '2026-03-01';
const LAST = '2026-03-14';
const OUTAGE = '2026-03-12';
const AMENDED = '2026-03-07';

/** One run of the batch, with its steps read back from the store. */
interface PeriodRun {
  readonly claimId: string;
  readonly day: string;
  readonly status: string;
  readonly code: string | undefined;
  readonly decision: string | undefined;
  readonly steps: readonly StepView[];
}

/** What `record-batch --json` says of each run, as far as this test reads it. */
interface BatchJson {
  readonly runs: readonly {
    readonly runId: string;
    readonly createdAt: string;
    readonly worldAt: string;
    readonly status: string;
    readonly input: { readonly claimId: string };
    readonly error: { readonly code: string } | null;
    readonly outcome: { readonly decision: string } | null;
  }[];
}

let folder: ReturnType<typeof tempFolder>;
let runs: readonly PeriodRun[];

const daysFrom = (first: string, last: string): string[] => {
  const days: string[] = [];
  for (let day = first; day <= last; day = new Date(Date.parse(`${day}T00:00:00Z`) + 864e5).toISOString().slice(0, 10))
    days.push(day);
  return days;
};

async function recordPeriod(db: string, build: string, claims: string, until = LAST): Promise<PeriodRun[]> {
  const result = await cli([
    'record-batch',
    'scenarios/claims-triage',
    '--claims',
    claims,
    '--at',
    FIRST,
    '--until',
    until,
    '--build',
    build,
    '--seed',
    '1',
    '--capture',
    'all',
    '--db',
    db,
    '--json',
  ]);
  expect(result.exit, result.stderr).toBe(0);
  const body: BatchJson = JSON.parse(result.stdout);
  const store = sqliteStore({ path: db, readOnly: true });
  try {
    const read: PeriodRun[] = [];
    for (const run of body.runs) {
      // Read each run at the instant it was made, while its full tier is still in force.
      const made = new Date(run.createdAt);
      const view = await createEngine({ store, clock: () => made }).getRun(run.runId);
      read.push({
        claimId: run.input.claimId,
        day: run.worldAt,
        status: run.status,
        code: run.error?.code,
        decision: run.outcome?.decision,
        steps: view.steps,
      });
    }
    return read;
  } finally {
    await store.close();
  }
}

const outputOf = (run: PeriodRun, tool: string): JsonObject | undefined => {
  const output = pick(run.steps.find((step) => step.kind === tool)?.response, 'output');
  return isJsonObject(output) ? output : undefined;
};
const lowestConfidence = (run: PeriodRun): number =>
  Math.min(
    ...run.steps
      .filter((step) => step.kind === 'ocr_document')
      .map((step) => numberAt(step.response, 'output', 'fields', 'damage_area_cm2', 'confidence')),
  );
const where = (list: readonly PeriodRun[]) => list.map((run) => `${run.claimId} ${run.day}`).sort();
const failedWith = (code: string) => runs.filter((run) => run.code === code);
const every = (claims: readonly string[], days: readonly string[]) =>
  claims.flatMap((claimId) => days.map((day) => `${claimId} ${day}`)).sort();

beforeAll(async () => {
  folder = tempFolder('forkpoint-period-batch-');
  runs = await recordPeriod(join(folder.path, 'period.db'), 'baseline', 'ALL');
});
afterAll(() => {
  folder.cleanup();
});

describe('the baseline batch over 2026-03-01..14', () => {
  test('records every claim on every day, and most runs complete', () => {
    expect(runs).toHaveLength(18 * 14);
    expect(runs.filter((run) => run.status === 'completed').length).toBe(194);
    // Every failure belongs to one of the classes below.
    expect(runs.filter((run) => run.status === 'failed').length).toBe(39 + 16 + 1 + 1 + 1);
  });

  test('the folded-form OCR misread fails three claims on every day before OCR v2, at the final model step', () => {
    const folded = failedWith('VALIDATION_FAILED').filter((run) => lowestConfidence(run) < 0.5);
    expect(where(folded)).toEqual(
      every(['CLM-91077', 'CLM-91114', 'CLM-91125'], ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']),
    );
    for (const run of folded) {
      expect(run.day < OCR_V2_FROM).toBe(true);
      expect(run.steps.at(-1)?.kind).toBe('model');
      expect(pick(outputOf(run, 'ocr_document'), 'ocr_model')).toBe('v1');
      expect(outputOf(run, 'fetch_policy')).not.toHaveProperty('amendment');
    }
    // From OCR v2 on, the same claims are approved.
    const later = runs.filter((run) => run.claimId === 'CLM-91114' && run.day >= OCR_V2_FROM && run.day !== OUTAGE);
    expect(later.map((run) => run.decision)).toEqual(Array.from({ length: later.length }, () => 'approve'));
  });

  test('the policy amendment fails two POL-2210 claims from 2026-03-07, with the amendment in fetch_policy', () => {
    const amended = failedWith('VALIDATION_FAILED').filter((run) => outputOf(run, 'fetch_policy')?.amendment);
    expect(where(amended)).toEqual(
      every(
        ['CLM-91136', 'CLM-91147'],
        daysFrom(AMENDED, LAST).filter((day) => day !== OUTAGE),
      ),
    );
    for (const run of amended) {
      expect(outputOf(run, 'fetch_policy')?.amendment).toEqual({ effective_from: AMENDED, previous_deductible: 250 });
      expect(lowestConfidence(run)).toBeGreaterThanOrEqual(0.5);
    }
    const before = runs.filter((run) => ['CLM-91136', 'CLM-91147'].includes(run.claimId) && run.day < AMENDED);
    expect(before.map((run) => run.decision)).toEqual(Array.from({ length: 12 }, () => 'approve'));
    for (const run of before) expect(outputOf(run, 'fetch_policy')).not.toHaveProperty('amendment');
  });

  test('a plain under-deductible failure stays apart: CLM-91035, neither folded nor amended', () => {
    const plain = failedWith('VALIDATION_FAILED').filter(
      (run) => lowestConfidence(run) >= 0.5 && outputOf(run, 'fetch_policy')?.amendment === undefined,
    );
    expect(where(plain)).toEqual(
      every(
        ['CLM-91035'],
        daysFrom(FIRST, LAST).filter((day) => day !== OUTAGE),
      ),
    );
  });

  test('the policy service timing out on 2026-03-12 stops every run that reaches fetch_policy', () => {
    const timedOut = failedWith('TOOL_FAILED').filter((run) => run.day === OUTAGE);
    const reaching = runs.filter((run) => run.day === OUTAGE && !['CLM-91046', 'CLM-91069'].includes(run.claimId));
    expect(where(timedOut)).toEqual(where(reaching));
    expect(timedOut).toHaveLength(16);
    for (const run of timedOut) {
      // The call observed nothing: the last step is the model turn that asked for the policy.
      expect(toolNamesAskedBy(run.steps.at(-1))).toEqual(['fetch_policy']);
      expect(run.steps.some((step) => step.kind === 'fetch_policy')).toBe(false);
    }
    // The settled and the disputed claim are decided before the policy is asked for.
    const decided = runs.filter((run) => run.day === OUTAGE && run.status === 'completed');
    expect(decided.map((run) => `${run.claimId} ${run.decision}`).sort()).toEqual([
      'CLM-91046 deny',
      'CLM-91069 refer',
    ]);
  });

  test('one-offs: a refusal of CLM-91158’s statement, CLM-91169’s split form at the cap, CLM-91180’s bad upload', () => {
    const refused = failedWith('MODEL_REFUSED');
    expect(where(refused)).toEqual(['CLM-91158 2026-03-11']);
    expect(refused[0]?.steps.map((step) => step.kind)).toEqual(['model', 'fetch_claim', 'model']);
    expect(pick(refused[0]?.steps.at(-1)?.response, 'stopReason')).toBe('refusal');

    const capped = failedWith('STEP_CAP_REACHED');
    expect(where(capped)).toEqual(['CLM-91169 2026-03-13']);
    expect(capped[0]?.steps).toHaveLength(24);
    expect(capped[0]?.steps.filter((step) => step.kind === 'ocr_document')).toHaveLength(18);

    // The OCR service failing on a truncated upload: TOOL_FAILED too, but on another tool, on another day.
    const crashed = failedWith('TOOL_FAILED').filter((run) => run.day !== OUTAGE);
    expect(where(crashed)).toEqual(['CLM-91180 2026-03-06']);
    expect(toolNamesAskedBy(crashed[0]?.steps.at(-1))).toEqual(['ocr_document']);
    expect(crashed[0]?.steps.map((step) => step.kind)).toEqual(['model', 'fetch_claim', 'model']);

    // Either side of its day, the same claims are decided as usual.
    for (const [claimId, day] of [
      ['CLM-91158', '2026-03-10'],
      ['CLM-91158', '2026-03-13'],
      ['CLM-91169', '2026-03-11'],
      ['CLM-91169', '2026-03-14'],
      ['CLM-91180', '2026-03-05'],
      ['CLM-91180', '2026-03-07'],
    ])
      expect(runs.find((run) => run.claimId === claimId && run.day === day)?.decision).toBe('approve');
  });
});

describe('the patched build over the folded forms', () => {
  test('refers each of them on every day before OCR v2, where baseline fails', async () => {
    const patched = await recordPeriod(
      join(folder.path, 'patched.db'),
      'patched',
      'CLM-91077,CLM-91114,CLM-91125',
      '2026-03-04',
    );
    expect(patched).toHaveLength(12);
    for (const run of patched) {
      expect(run.status).toBe('completed');
      expect(run.decision).toBe('refer');
      expect(run.steps.at(-1)?.kind).toBe('ocr_document');
    }
  });
});
