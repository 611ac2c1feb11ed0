import { beforeAll, describe, expect, test } from 'vitest';
import { baseline, claimsSynthetic } from '../../scenarios/claims-triage/index.js';
import { MUTANTS } from '../../studies/mutation-study/mutants.js';
import type { MutantRow, MutationStudy } from '../../studies/mutation-study/run-study.js';
import { runMutationStudy } from '../../studies/mutation-study/run-study.js';
import type { Cassette } from '../../src/cassette/index.js';
import type { FailedToolCall } from '../../src/agent/index.js';
import type { SyntheticCase } from '../../src/scenario/index.js';
import { createEngine } from '../../src/engine/index.js';
import { evaluateSynthetic } from '../../src/workflows/index.js';
import { isToolResponse } from '../../src/conversation/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { documentsOf, loadCases } from '../scenarios/claims-triage/synthetic-fixtures.js';

const CONTENT_DEPENDENT = [
  'swapped-policy-limits',
  'prompt-word-swap',
  'negative-payout-accepted',
  'claim-id-lowercased',
];
const CONTENT_INDIFFERENT = [
  'tool-result-separate-message',
  'retry-budget-off-by-one',
  'step-cap-off-by-one',
  'parser-chokes-on-decimal',
  'swapped-ocr-fields',
  'wrong-deductible-sign',
];

const CASES = loadCases();
// The baseline retries an OCR timeout twice: a document timing out once or twice recovers.
const RECOVERED_RETRIES = CASES.filter((testCase) =>
  documentsOf(testCase).some(
    (document) => typeof document.timeouts === 'number' && document.timeouts > 0 && document.timeouts <= 2,
  ),
).map((testCase) => testCase.id);

let study: MutationStudy;

beforeAll(async () => {
  study = await runMutationStudy();
}, 180_000);

function rowOf(name: string): MutantRow {
  const row = study.rows.find((candidate) => candidate.name === name);
  if (row === undefined) throw new Error(`the study has no mutant ${name}`);
  return row;
}

describe('the mutants', () => {
  test('are each the baseline with one bug: a build of their own name and code hash', () => {
    const hashes = new Set([baseline.codeHash]);
    for (const mutant of MUTANTS) {
      const build = mutant.mutate(baseline);
      expect(build.build).toBe(`mutant-${mutant.name}`);
      expect(build.name).toBe(baseline.name);
      hashes.add(build.codeHash);
    }
    expect(hashes.size).toBe(MUTANTS.length + 1);
  });

  test('classify the bugs the chapter names as content-indifferent, and the content bugs as dependent', () => {
    const indifferent = (name: string): boolean | undefined =>
      MUTANTS.find((mutant) => mutant.name === name)?.contentIndifferent;
    for (const name of CONTENT_INDIFFERENT) expect(indifferent(name), name).toBe(true);
    for (const name of CONTENT_DEPENDENT) expect(indifferent(name), name).toBe(false);
  });
});

describe('the mutation study', () => {
  test('records every synthetic case', () => {
    expect(study.cases).toBe(CASES.length);
    expect(study.rows.map((row) => row.name)).toEqual(MUTANTS.map((mutant) => mutant.name));
  });

  test('finds the unmutated baseline caught by neither tier, with no replay crashing', () => {
    expect(study.sanity.full.caseIds).toEqual([]);
    expect(study.sanity.structural.caseIds).toEqual([]);
    expect(study.sanity.structuralEndingOnly.caseIds).toEqual([]);
    expect(study.sanity.crashes).toEqual([]);
  });

  test.each(MUTANTS.map((mutant) => mutant.name))('catches %s by strict replay, without a crash', (name) => {
    expect(rowOf(name).full.count).toBeGreaterThan(0);
    expect(rowOf(name).crashes).toEqual([]);
  });

  test.each(MUTANTS.filter((mutant) => mutant.contentIndifferent).map((mutant) => mutant.name))(
    'catches the content-indifferent %s by structural replay',
    (name) => {
      expect(rowOf(name).structural.count).toBeGreaterThan(0);
    },
  );

  test.each(CONTENT_DEPENDENT)('does not catch the content-dependent %s by structural replay', (name) => {
    const row = rowOf(name);
    expect(row.full.count).toBeGreaterThan(0);
    expect(row.structural.caseIds).toEqual([]);
    expect(row.structuralEndingOnly.caseIds).toEqual([]);
  });

  test('catches the retry budget structurally on the cases whose timeouts the baseline recovered from', () => {
    expect(RECOVERED_RETRIES.length).toBeGreaterThan(0);
    for (const id of rowOf('retry-budget-off-by-one').structural.caseIds)
      expect(CASES.map((testCase) => testCase.id)).toContain(id);
    expect(rowOf('retry-budget-off-by-one').structural.caseIds.some((id) => RECOVERED_RETRIES.includes(id))).toBe(true);
  });

  test("says in its notes that the chapter's dropped-assistant-turn retry bug could not be planted", () => {
    expect(
      study.notes.some((note) => note.includes('without the assistant turn') && note.includes('append-only')),
    ).toBe(true);
  });

  test('sums the rows: every mutant full replay catches, and the share structural replay catches of them', () => {
    const byFull = study.rows.filter((row) => row.full.count > 0);
    expect(study.summary.caughtByFull).toBe(byFull.length);
    expect(study.summary.caughtByBoth).toBe(byFull.filter((row) => row.structural.count > 0).length);
    expect(study.summary.share).toBeCloseTo(study.summary.caughtByBoth / study.summary.caughtByFull);
  });
});

describe('what a structural replay needs of a build', () => {
  async function recorded(id: string, agent = baseline): Promise<{ full: Cassette; structural: Cassette }> {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const cases: SyntheticCase[] = CASES.filter((testCase) => testCase.id === id);
    const [result] = (
      await evaluateSynthetic(engine, {
        support: claimsSynthetic,
        cases,
        agent,
        scenario: 'scenarios/claims-triage',
        seed: 1,
      })
    ).cases;
    if (result === undefined) throw new Error(`no case ${id}`);
    return {
      full: await engine.cassette(result.runId, 'full'),
      structural: await engine.cassette(result.runId, 'structural'),
    };
  }

  function firstOcrFailure(cassette: Cassette): FailedToolCall {
    const entry = cassette.entries.find((candidate) => candidate.kind === 'ocr_document');
    if (entry === undefined || !isToolResponse(entry.response)) throw new Error('the cassette holds no OCR answer');
    const call = {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'ocr_document',
      input: { document_id: 'DOC-S3501' },
    } as const;
    return { call, response: entry.response, step: entry.step, attempt: 1, state: null };
  }

  test('the retry policy reads a flag that survives shaping, so it decides the same on the shape of SYN-35', async () => {
    const { full, structural } = await recorded('SYN-35');
    const retry = baseline.retryTool;
    if (retry === undefined) throw new Error('baseline has no retry policy');
    const timeout = 'ocr_document timed out after 30 s';
    expect(firstOcrFailure(full).response).toEqual({ output: { error: timeout, retryable: true }, isError: true });
    expect(firstOcrFailure(structural).response).toEqual({
      output: { error: 'a'.repeat(timeout.length), retryable: true },
      isError: true,
    });
    expect(retry(firstOcrFailure(full))).toBe(true);
    expect(retry(firstOcrFailure(structural))).toBe(true);
  });

  test('one turn per tool result records and replays: SYN-42 with the separate-message mutant', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'tool-result-separate-message');
    if (mutant === undefined) throw new Error('no tool-result-separate-message mutant');
    const { full } = await recorded('SYN-42', mutant.mutate(baseline));
    expect(full.entries.length).toBeGreaterThan(0);
  });
});
