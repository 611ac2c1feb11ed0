import { describe, expect, it } from 'vitest';
import type { DivergenceSide, SourcedStep } from '../../src/analysis/index.js';
import { classifyDivergence, maskVolatile, tallyDivergences } from '../../src/analysis/index.js';
import type { Message } from '../../src/conversation/index.js';
import { APPROVAL_KIND, approvalRequestOf, approvalResponseOf } from '../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../src/json/index.js';

const OLD = 'code-old';
const NEW = 'code-new';

const modelRequest = (system: string, messages: JsonValue[] = ['m0']): JsonObject => ({
  messages,
  model: 'claude-opus-5',
  params: {},
  system,
  tools: [],
});
const modelResponse = (text: string, id = 'msg_1', signature = 'sig_1'): JsonObject => ({
  id,
  content: [
    { type: 'thinking', thinking: 'next: claim', signature },
    { type: 'text', text },
    { type: 'tool_use', id: `toolu_${id}`, name: 'fetch_claim', input: { claim_id: 'CLM-1' } },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: id.length, outputTokens: 10 },
});
const toolResponse = (status: string): JsonObject => ({ output: { claim_id: 'CLM-1', status }, isError: false });

function model(index: number, hash: string, request: JsonValue, response: JsonValue): SourcedStep {
  return { kind: 'model', index, requestHash: hash, provenance: 'live', request, response };
}
function tool(kind: string, index: number, hash: string, response: JsonValue): SourcedStep {
  return {
    kind,
    index,
    requestHash: hash,
    provenance: 'live',
    request: { input: { claim_id: 'CLM-1' }, tool: kind },
    response,
  };
}

/** A three-step recording: model asks fetch_claim, the claim, model asks again. */
function recording(): SourcedStep[] {
  return [
    model(0, 'h-m0', modelRequest('You triage claims.'), modelResponse('Fetching the claim.')),
    tool('fetch_claim', 0, 'h-t0', toolResponse('open')),
    model(1, 'h-m1', modelRequest('You triage claims.', ['m0', 'm1', 'm2']), modelResponse('Deciding.')),
  ];
}
const side = (steps: SourcedStep[], codeHash = OLD, messages?: DivergenceSide['messages']): DivergenceSide =>
  messages === undefined ? { codeHash, steps } : { codeHash, steps, messages };

describe('classifyDivergence', () => {
  it('is none when the re-execution followed the recording to the end', () => {
    const result = classifyDivergence(side(recording()), side(recording()));
    expect(result).toMatchObject({ source: 'none', step: null, call: null, on: null, diff: [] });
  });

  it('is none when model responses differ only in provider ids, signatures and token counts', () => {
    const again = recording().map((step) =>
      step.kind === 'model'
        ? {
            ...step,
            response: modelResponse(step.index === 0 ? 'Fetching the claim.' : 'Deciding.', 'msg_other', 'sig_other'),
          }
        : step,
    );
    expect(classifyDivergence(side(recording()), side(again)).source).toBe('none');
  });

  it('is tool-response when the same tool request got another answer', () => {
    const again = recording();
    again[1] = tool('fetch_claim', 0, 'h-t0', toolResponse('settled'));
    const result = classifyDivergence(side(recording()), side(again));
    expect(result).toMatchObject({
      source: 'tool-response',
      step: 2,
      kind: 'fetch_claim',
      index: 0,
      call: 'fetch_claim#0',
      on: 'response',
    });
    expect(result.diff).toEqual([{ path: 'output.status', before: '"open"', after: '"settled"' }]);
  });

  it("is approval, never tool-response, when the same call put to a person got another answer, with both sides' words", () => {
    const answer = (approved: boolean, by: string) =>
      approvalResponseOf({ approved, by, at: '2026-03-09T10:00:00.000Z', note: null, requestHash: 'h-pay' });
    const question = approvalRequestOf({ type: 'tool_use', id: 'toolu_1', name: 'issue_payment', input: {} }, 'h-pay');
    const ask = (response: JsonValue): SourcedStep => ({
      kind: APPROVAL_KIND,
      index: 0,
      requestHash: 'h-ask',
      provenance: 'human',
      request: question,
      response,
    });
    const recorded = [...recording(), ask(answer(true, 'dana'))];
    const otherwise = classifyDivergence(side(recorded), side([...recording(), ask(answer(false, 'dana'))]));
    expect(otherwise).toMatchObject({ source: 'approval', step: 4, call: 'approval#0', on: 'response' });
    expect(otherwise.reason).toBe(
      'the same call put to a person: approved in the recording, rejected in the re-execution',
    );
    const anotherReviewer = classifyDivergence(side(recorded), side([...recording(), ask(answer(true, 'sam'))]));
    expect(anotherReviewer).toMatchObject({ source: 'approval', step: 4 });
    expect(anotherReviewer.reason).toMatch(/approved on both sides, by another reviewer/);
    expect(anotherReviewer.diff).toEqual([{ path: 'output.by', before: '"dana"', after: '"sam"' }]);
  });

  it('is model-response when the same model request got differently worded answer', () => {
    const again = recording();
    again[0] = model(
      0,
      'h-m0',
      modelRequest('You triage claims.'),
      modelResponse('Let me pull up the claim.', 'msg_9', 'sig_9'),
    );
    const result = classifyDivergence(side(recording()), side(again));
    expect(result).toMatchObject({ source: 'model-response', step: 1, call: 'model#0', on: 'response' });
    // The provider's ids and signatures are not part of the diff: only what the model said.
    expect(result.diff.map((change) => change.path)).toEqual(['content[1].text']);
  });

  it.each([
    ['ISO 8601 timestamp', 'Now: 2026-03-04T09:00:00.000Z.', 'Now: 2026-03-09T17:31:12.345Z.'],
    ['UUID', 'Request 3f2b9c1e-5a7d-4e21-9b0c-8d6f4a2e1c3b.', 'Request a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d.'],
    ['epoch milliseconds', 'Sent at 1772611200000.', 'Sent at 1773043200123.'],
    ['hex token', 'Trace 9f86d081884c7d659a2feaa0c55ad015.', 'Trace 2c26b46b68ffc68ff99b453c1d304134.'],
    ['base62 token', 'Request req_01HXk2Jb7QpZr9TmWc4Lys8N.', 'Request req_01HXm8Pq3VtYw2KdNf6Rgz1B.'],
  ])(
    'is volatile-request when the requests differ only in a %s, even with another code hash',
    (kind, before, after) => {
      const again = recording();
      again[0] = model(0, 'h-other', modelRequest(`You triage claims. ${after}`), modelResponse('Fetching the claim.'));
      const recorded = recording();
      recorded[0] = model(
        0,
        'h-m0',
        modelRequest(`You triage claims. ${before}`),
        modelResponse('Fetching the claim.'),
      );
      const result = classifyDivergence(side(recorded, OLD), side(again, NEW));
      expect(result).toMatchObject({ source: 'volatile-request', step: 1, call: 'model#0', on: 'request' });
      expect(result.reason).toContain(kind);
      expect(result.diff.map((change) => change.path)).toEqual(['system']);
    },
  );

  it('is volatile-request for epoch milliseconds held as a number', () => {
    const recorded = recording();
    recorded[0] = model(
      0,
      'h-m0',
      { ...modelRequest('You triage claims.'), sentAt: 1772611200000 },
      modelResponse('Fetching the claim.'),
    );
    const again = recording();
    again[0] = model(
      0,
      'h-other',
      { ...modelRequest('You triage claims.'), sentAt: 1773043200123 },
      modelResponse('Fetching the claim.'),
    );
    expect(classifyDivergence(side(recorded, OLD), side(again, NEW)).source).toBe('volatile-request');
  });

  it('is volatile-request when the code hash is the same, whatever the request diff', () => {
    const again = recording();
    again[0] = model(
      0,
      'h-other',
      modelRequest('You triage claims. Your lucky number is 7.'),
      modelResponse('Fetching the claim.'),
    );
    const result = classifyDivergence(side(recording(), OLD), side(again, OLD));
    expect(result).toMatchObject({ source: 'volatile-request', step: 1, call: 'model#0', on: 'request' });
    expect(result.reason).toMatch(/same code/);
  });

  it('is code when the request changed beyond volatile spans and the code hash differs', () => {
    const again = recording();
    again[0] = model(0, 'h-other', modelRequest('You triage motor claims.'), modelResponse('Fetching the claim.'));
    const result = classifyDivergence(side(recording(), OLD), side(again, NEW));
    expect(result).toMatchObject({ source: 'code', step: 1, kind: 'model', index: 0, call: 'model#0', on: 'request' });
    expect(result.diff).toEqual([
      { path: 'system', before: '"You triage claims."', after: '"You triage motor claims."' },
    ]);
  });

  it('is code when a volatile span changed beside a real change', () => {
    const recorded = recording();
    recorded[0] = model(
      0,
      'h-m0',
      modelRequest('Triage. Now: 2026-03-04T09:00:00Z.'),
      modelResponse('Fetching the claim.'),
    );
    const again = recording();
    again[0] = model(
      0,
      'h-other',
      modelRequest('Triage carefully. Now: 2026-03-09T09:00:00Z.'),
      modelResponse('Fetching the claim.'),
    );
    expect(classifyDivergence(side(recorded, OLD), side(again, NEW)).source).toBe('code');
  });

  it('never takes a changed message digest for a volatile hex token', () => {
    const recorded = recording();
    const again = recording();
    again[2] = model(
      1,
      'h-other',
      modelRequest('You triage claims.', ['m0', 'm1', 'ffffffffffffffff']),
      modelResponse('Deciding.'),
    );
    recorded[2] = model(
      1,
      'h-m1',
      modelRequest('You triage claims.', ['m0', 'm1', '0123456789abcdef']),
      modelResponse('Deciding.'),
    );
    const result = classifyDivergence(side(recorded, OLD), side(again, NEW));
    expect(result).toMatchObject({ source: 'code', step: 3, call: 'model#1' });
  });

  it('diffs model requests with their messages in full when the messages are given', () => {
    const message = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
    const recorded = recording();
    recorded[2] = model(1, 'h-m1', modelRequest('You triage claims.', ['d0', 'd1']), modelResponse('Deciding.'));
    const again = recording();
    again[2] = model(1, 'h-other', modelRequest('You triage claims.', ['d0', 'd2']), modelResponse('Deciding.'));
    const result = classifyDivergence(
      side(recorded, OLD, [
        { digest: 'd0', message: message('Triage CLM-1.') },
        { digest: 'd1', message: message('{"area": 205}') },
      ]),
      side(again, NEW, [
        { digest: 'd0', message: message('Triage CLM-1.') },
        { digest: 'd2', message: message('{"area": 2050}') },
      ]),
    );
    expect(result.source).toBe('code');
    expect(result.diff).toEqual([
      { path: 'messages[1].content[0].text', before: '"{\\"area\\": 205}"', after: '"{\\"area\\": 2050}"' },
    ]);
  });

  it('is code at the step where a build with other code stops early', () => {
    const shorter = recording().slice(0, 2);
    const result = classifyDivergence(side(recording(), OLD), side(shorter, NEW));
    expect(result).toMatchObject({ source: 'code', step: 3, call: 'model#1', on: 'request' });
    expect(result.diff).toEqual([{ path: '(call)', before: 'model#1', after: '(absent)' }]);
  });
});

describe('maskVolatile', () => {
  it('leaves prose, bare dates and short hex alone', () => {
    const text = 'Settled on 2026-03-06 by the claims office; form AR-7 rev. 2025-11, ref cafe1234, deductible 400.';
    expect(maskVolatile(text)).toBe(text);
    expect(maskVolatile(2050)).toBe(2050);
  });
});

describe('tallyDivergences', () => {
  it('lists every source in table order with its count, share and entries', () => {
    const entries = [
      { source: 'code' as const },
      { source: 'tool-response' as const },
      { source: 'tool-response' as const },
      { source: 'none' as const },
    ];
    const table = tallyDivergences(entries);
    expect(table.total).toBe(4);
    expect(table.rows.map((row) => [row.source, row.count, row.share])).toEqual([
      ['tool-response', 2, 0.5],
      ['model-response', 0, 0],
      ['approval', 0, 0],
      ['volatile-request', 0, 0],
      ['code', 1, 0.25],
      ['simulated', 0, 0],
      ['blocked', 0, 0],
      ['awaiting-approval', 0, 0],
      ['none', 1, 0.25],
    ]);
    expect(table.rows[0]!.entries).toEqual([entries[1], entries[2]]);
  });

  it('gives shares of 0, not NaN, over no re-executions', () => {
    expect(tallyDivergences([]).rows.every((row) => row.count === 0 && row.share === 0)).toBe(true);
  });
});
