import { beforeAll, describe, expect, test } from 'vitest';
import { baseline, claimsSynthetic } from '../../../scenarios/claims-triage/index.js';
import { MUTANTS } from '../../../scenarios/claims-triage/mutation-study/mutants.js';
import type { MutantRow, MutationStudy } from '../../../scenarios/claims-triage/mutation-study/run-study.js';
import { runMutationStudy } from '../../../scenarios/claims-triage/mutation-study/run-study.js';
import type { Cassette, FailedToolCall, SyntheticCase } from '../../../src/index.js';
import { createEngine, evaluateSynthetic, isForkpointError, isToolResponse, sqliteStore } from '../../../src/index.js';
import { documentsOf, loadCases } from './synthetic-fixtures.js';

const CONTENT_DEPENDENT = ['swapped-policy-limits', 'prompt-word-swap', 'negative-payout-accepted', 'claim-id-lowercased'];
const CONTENT_INDIFFERENT = ['tool-result-separate-message', 'retry-budget-off-by-one', 'step-cap-off-by-one', 'parser-chokes-on-decimal', 'swapped-ocr-fields', 'wrong-deductible-sign'];

// Forkpoint bugs the study runs into. Each is pinned below by what happens today, so that fixing
// one fails its pin: then delete it here and the mutant joins the general expectations.
//
// A: the checkpoint writer stores one message per step, so a toolTurn that returns two turns makes
//    the run throw INTERNAL, in recording and in both replay tiers alike.
const CRASH_ON_MULTI_TURN = ['tool-result-separate-message', 'retry-resends-failed-result'];
// B: a structural replay hands the build's hooks shaped tool results. The baseline's retryTool looks
//    for "timed out" in the error, which reads "aaa..." there, so it never retries: the baseline
//    diverges from its own cassettes wherever a retried timeout recovered, and a retry bug is invisible.
// C: a structural replay that ends earlier than the recording (here STEP_CAP_REACHED a step early)
//    is not a divergence; the entries it never reached are only `dropped-call` findings.
const STRUCTURAL_GAPS = {
  'retry-budget-off-by-one': 'B: structural replay never takes the retry path',
  'step-cap-off-by-one': 'C: an earlier ending is not a divergence',
} as const;

const CASES = loadCases();
// The baseline retries an OCR timeout twice: a document timing out once or twice recovers.
const RECOVERED_RETRIES = CASES.filter((testCase) =>
  documentsOf(testCase).some((document) => typeof document.timeouts === 'number' && document.timeouts > 0 && document.timeouts <= 2),
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

const isGap = (name: string): boolean => CRASH_ON_MULTI_TURN.includes(name) || name in STRUCTURAL_GAPS;

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
    const indifferent = (name: string): boolean | undefined => MUTANTS.find((mutant) => mutant.name === name)?.contentIndifferent;
    for (const name of CONTENT_INDIFFERENT) expect(indifferent(name), name).toBe(true);
    for (const name of CONTENT_DEPENDENT) expect(indifferent(name), name).toBe(false);
  });
});

describe('the mutation study', () => {
  test('records every synthetic case', () => {
    expect(study.cases).toBe(CASES.length);
    expect(study.rows.map((row) => row.name)).toEqual(MUTANTS.map((mutant) => mutant.name));
  });

  test('finds the unmutated baseline caught by no strict replay, and no replay of it crashing', () => {
    expect(study.sanity.full.caseIds).toEqual([]);
    expect(study.sanity.crashes).toEqual([]);
    expect(study.sanity.structuralEndingOnly.caseIds).toEqual([]);
  });

  test('pins bug B: the unmutated baseline diverges structurally exactly where a retried OCR timeout recovered', () => {
    expect(RECOVERED_RETRIES.length).toBeGreaterThan(0);
    expect(study.sanity.structural.caseIds).toEqual(RECOVERED_RETRIES);
  });

  test.each(MUTANTS.map((mutant) => mutant.name).filter((name) => !CRASH_ON_MULTI_TURN.includes(name)))('catches %s by strict replay', (name) => {
    expect(rowOf(name).full.count).toBeGreaterThan(0);
    expect(rowOf(name).crashes).toEqual([]);
  });

  test.each(MUTANTS.filter((mutant) => mutant.contentIndifferent && !isGap(mutant.name)).map((mutant) => mutant.name))(
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

  test.each(CRASH_ON_MULTI_TURN)('pins bug A: %s crashes every replay that reaches its extra turn, in both tiers', (name) => {
    const row = rowOf(name);
    expect(row.crashes.length).toBeGreaterThan(0);
    expect(new Set(row.crashes.map((crash) => crash.tier))).toEqual(new Set(['full', 'structural']));
    for (const crash of row.crashes) expect(crash.message).toMatch(/^a step appended \d+ messages; the trajectory stores one per step$/);
    expect(row.full.caseIds).toEqual([]);
  });

  test('pins bug B: retry-budget-off-by-one is caught by full replay only on cassettes the structural tier cannot use', () => {
    const row = rowOf('retry-budget-off-by-one');
    expect(row.structural.caseIds).toEqual([]);
    expect(row.full.caseIds.length).toBeGreaterThan(0);
    for (const id of row.full.caseIds) expect(study.sanity.structural.caseIds).toContain(id);
  });

  test('pins bug C: step-cap-off-by-one ends structural replays early without a divergence', () => {
    const row = rowOf('step-cap-off-by-one');
    expect(row.structural.caseIds).toEqual([]);
    expect(row.structuralEndingOnly.count).toBeGreaterThan(0);
  });

  test('says in its notes that the chapter\'s dropped-assistant-turn retry bug could not be planted', () => {
    expect(study.notes.some((note) => note.includes('without the assistant turn') && note.includes('append-only'))).toBe(true);
  });

  test('sums the rows: every mutant full replay catches, and the share structural replay catches of them', () => {
    const byFull = study.rows.filter((row) => row.full.count > 0);
    expect(study.summary.caughtByFull).toBe(byFull.length);
    expect(study.summary.caughtByBoth).toBe(byFull.filter((row) => row.structural.count > 0).length);
    expect(study.summary.share).toBeCloseTo(study.summary.caughtByBoth / study.summary.caughtByFull);
  });
});

describe('the forkpoint bugs behind the pins, reproduced directly', () => {
  async function recorded(id: string, agent = baseline): Promise<{ full: Cassette; structural: Cassette }> {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const cases: SyntheticCase[] = CASES.filter((testCase) => testCase.id === id);
    const [result] = (await evaluateSynthetic(engine, { support: claimsSynthetic, cases, agent, scenario: 'scenarios/claims-triage', seed: 1 })).cases;
    if (result === undefined) throw new Error(`no case ${id}`);
    return { full: engine.cassette(result.runId, 'full'), structural: engine.cassette(result.runId, 'structural') };
  }

  function firstOcrFailure(cassette: Cassette): FailedToolCall {
    const entry = cassette.entries.find((candidate) => candidate.kind === 'ocr_document');
    if (entry === undefined || !isToolResponse(entry.response)) throw new Error('the cassette holds no OCR answer');
    const call = { type: 'tool_use', id: 'toolu_1', name: 'ocr_document', input: { document_id: 'DOC-S3501' } } as const;
    return { call, response: entry.response, step: entry.step, attempt: 1 };
  }

  test('B: the baseline retries the recorded OCR timeout of SYN-35, but not its shaped copy', async () => {
    const { full, structural } = await recorded('SYN-35');
    const retry = baseline.retryTool;
    if (retry === undefined) throw new Error('baseline has no retry policy');
    const timeout = 'ocr_document timed out after 30 s';
    expect(firstOcrFailure(full).response).toEqual({ output: { error: timeout }, isError: true });
    expect(retry(firstOcrFailure(full))).toBe(true);
    expect(firstOcrFailure(structural).response).toEqual({ output: { error: 'a'.repeat(timeout.length) }, isError: true });
    expect(retry(firstOcrFailure(structural))).toBe(false);
  });

  test('A: recording a two-document claim with a build whose toolTurn returns two turns throws INTERNAL', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'tool-result-separate-message');
    if (mutant === undefined) throw new Error('no tool-result-separate-message mutant');
    const error: unknown = await recorded('SYN-42', mutant.mutate(baseline)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isForkpointError(error) && error.code).toBe('INTERNAL');
    expect(error instanceof Error && error.message).toBe('a step appended 2 messages; the trajectory stores one per step');
  });
});
