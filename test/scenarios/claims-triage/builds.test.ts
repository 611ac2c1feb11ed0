import { describe, expect, test } from 'vitest';
import { baseline, patched, timestamped } from '../../../scenarios/claims-triage/index.js';
import { validateDecision } from '../../../scenarios/claims-triage/outcome.js';
import type { AgentBuild, FailedToolCall, ToolResultCheck, ToolResultVerdict } from '../../../src/agent/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { codeHashOf } from '../../../src/agent/index.js';
import { fieldText } from '../../support/field-text.js';
import { callTool } from './claims-fixtures.js';

const BUILDS: readonly AgentBuild[] = [baseline, patched, timestamped];

function ocrCheck(output: JsonValue, isError = false): ToolResultCheck {
  return {
    call: { type: 'tool_use', id: 'toolu_1', name: 'ocr_document', input: { document_id: 'DOC-1' } },
    response: { output, isError },
    step: 4,
    state: null,
  };
}

function reading(confidence: number): JsonObject {
  return { document_id: 'DOC-1', ocr_model: 'v1', fields: { damage_area_cm2: { value: 900, confidence } } };
}

function guard(check: ToolResultCheck): ToolResultVerdict {
  if (patched.guardToolResult === undefined) throw new Error('patched has no tool-result guard');
  return patched.guardToolResult(check);
}

function promptAt(build: AgentBuild, now: Date): string {
  return typeof build.systemPrompt === 'string' ? build.systemPrompt : build.systemPrompt({ now, random: () => 0.5 });
}

describe('the three builds', () => {
  test('are named baseline, patched and timestamped, all of agent claims-triage', () => {
    expect(BUILDS.map((build) => build.build)).toEqual(['baseline', 'patched', 'timestamped']);
    for (const build of BUILDS) expect(build.name).toBe('claims-triage');
  });

  test('have pairwise different code hashes, each the hash of its own definition', () => {
    const hashes = BUILDS.map((build) => build.codeHash);
    expect(new Set(hashes).size).toBe(3);
    for (const build of BUILDS) {
      expect(build.codeHash).toMatch(/^[0-9a-f]{16}$/);
      expect(codeHashOf(build)).toBe(build.codeHash);
    }
  });

  test('run on claude-opus-5 and send no sampling parameters, which it would reject', () => {
    for (const build of BUILDS) {
      expect(build.model).toBe('claude-opus-5');
      expect(build.params.temperature).toBeUndefined();
      expect(build.params.topP).toBeUndefined();
      expect(build.params.topK).toBeUndefined();
    }
  });

  test('offer the four tools, of which only estimate_repair writes', () => {
    for (const build of BUILDS) {
      expect(build.tools.map((tool) => tool.name)).toEqual([
        'fetch_claim',
        'ocr_document',
        'estimate_repair',
        'fetch_policy',
      ]);
      expect(build.tools.filter((tool) => !tool.readOnly).map((tool) => tool.name)).toEqual(['estimate_repair']);
    }
  });

  test('write a first message that names the claim', () => {
    for (const build of BUILDS) expect(build.renderInput({ claimId: 'CLM-91080' })).toContain('CLM-91080');
  });

  test('only patched guards tool results', () => {
    expect(baseline.guardToolResult).toBeUndefined();
    expect(timestamped.guardToolResult).toBeUndefined();
    expect(patched.guardToolResult).toBeTypeOf('function');
  });
});

describe("patched's confidence guard", () => {
  test('ends the run with a referral and no payout when an OCR field is read below 0.55', () => {
    const verdict = guard(ocrCheck(reading(0.38)));
    expect(verdict).toMatchObject({ action: 'finish', outcome: { decision: 'refer', payout: null } });
  });

  test('names the field and its confidence in the referral reason', () => {
    const verdict = guard(ocrCheck(reading(0.38)));
    const reason = verdict.action === 'finish' ? fieldText(verdict.outcome.reason) : '';
    expect(reason).toContain('damage_area_cm2');
    expect(reason).toContain('0.38');
  });

  test('the referral it writes passes the harness validation', () => {
    const verdict = guard(ocrCheck(reading(0.1)));
    if (verdict.action !== 'finish') throw new Error(`expected finish, got ${verdict.action}`);
    expect(validateDecision(verdict.outcome)).toEqual([]);
  });

  test.each([0.549, 0.5, 0])('refers at confidence %s', (confidence) => {
    expect(guard(ocrCheck(reading(confidence))).action).toBe('finish');
  });

  test.each([0.55, 0.62, 0.97])('lets a reading at confidence %s through', (confidence) => {
    expect(guard(ocrCheck(reading(confidence)))).toEqual({ action: 'continue' });
  });

  test('looks at every field, not only the damage area', () => {
    const output: JsonObject = {
      document_id: 'DOC-1',
      fields: { damage_area_cm2: { value: 900, confidence: 0.97 }, panels_affected: { value: 2, confidence: 0.3 } },
    };
    expect(guard(ocrCheck(output)).action).toBe('finish');
  });

  test('lets an OCR error result through to the model', () => {
    expect(guard(ocrCheck({ error: 'document DOC-1 not found' }, true))).toEqual({ action: 'continue' });
  });

  test('ignores tools other than ocr_document', () => {
    const check: ToolResultCheck = {
      call: { type: 'tool_use', id: 'toolu_2', name: 'fetch_policy', input: { policy_id: 'POL-5531' } },
      response: { output: { fields: { deductible: { value: 500, confidence: 0.1 } } }, isError: false },
      step: 8,
      state: null,
    };
    expect(guard(check)).toEqual({ action: 'continue' });
  });

  test('fires on the folded form as OCR v1 reads it and not as v2 reads it', async () => {
    const v1 = await callTool('2026-03-04', 'ocr_document', { document_id: 'DOC-77120' });
    const v2 = await callTool('2026-03-09', 'ocr_document', { document_id: 'DOC-77120' });
    expect(guard(ocrCheck(v1)).action).toBe('finish');
    expect(guard(ocrCheck(v2)).action).toBe('continue');
  });
});

describe('the retry hook every build shares', () => {
  const failure = (tool: string, error: string, attempt: number): FailedToolCall => ({
    call: { type: 'tool_use', id: 'toolu_1', name: tool, input: { document_id: 'DOC-1' } },
    // The live transport flags a transient failure (a thrown error with `retryable: true`).
    response: { output: error.includes('timed out') ? { error, retryable: true } : { error }, isError: true },
    step: 4,
    attempt,
    state: null,
  });
  const retries = (build: AgentBuild, failed: FailedToolCall): boolean => {
    if (build.retryTool === undefined) throw new Error(`${build.build} has no retry hook`);
    return build.retryTool(failed);
  };

  test.each([1, 2])('retries an OCR timeout at attempt %i', (attempt) => {
    for (const build of BUILDS)
      expect(retries(build, failure('ocr_document', 'ocr_document timed out after 30 s', attempt))).toBe(true);
  });

  test('gives up after the third attempt', () => {
    for (const build of BUILDS)
      expect(retries(build, failure('ocr_document', 'ocr_document timed out after 30 s', 3))).toBe(false);
  });

  test('does not retry an OCR error that is not a timeout', () => {
    for (const build of BUILDS)
      expect(retries(build, failure('ocr_document', 'document DOC-1 not found', 1))).toBe(false);
  });

  test('does not retry other tools, even when they time out', () => {
    for (const build of BUILDS)
      expect(retries(build, failure('estimate_repair', 'estimate_repair timed out after 30 s', 1))).toBe(false);
  });
});

describe("timestamped's system prompt", () => {
  test('is baseline prompt plus the current time', () => {
    const now = new Date('2026-03-04T10:00:00Z');
    const prompt = promptAt(timestamped, now);
    expect(prompt.startsWith(promptAt(baseline, now))).toBe(true);
    expect(prompt).toContain('2026-03-04T10:00:00.000Z');
  });

  test('changes with the clock, where baseline and patched do not', () => {
    const early = new Date('2026-03-04T10:00:00Z');
    const late = new Date('2026-03-04T10:00:01Z');
    expect(promptAt(timestamped, late)).not.toBe(promptAt(timestamped, early));
    expect(promptAt(baseline, late)).toBe(promptAt(baseline, early));
    expect(promptAt(patched, late)).toBe(promptAt(baseline, early));
  });
});
