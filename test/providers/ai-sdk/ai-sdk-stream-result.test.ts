import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { generateResultOfStreamParts, neutralResultOfStreamParts } from '../../../src/providers/ai-sdk/index.js';
import type { AiSdkLanguageModel } from '../../../src/providers/ai-sdk/index.js';
import { neutralResultOf } from '../../../src/providers/ai-sdk/ai-sdk-result.js';
import { thrown } from '../../support/thrown.js';

const model = (specificationVersion: 'v2' | 'v3' = 'v3'): AiSdkLanguageModel => ({
  specificationVersion,
  provider: 'anthropic.messages',
  modelId: 'model-1',
  doGenerate: () => Promise.reject(new Error('a stream is assembled, never generated')),
});
const timestamp = new Date('2026-03-09T10:11:12.000Z');
const usage = {
  inputTokens: { total: 10, noCache: 7, cacheRead: 3, cacheWrite: undefined },
  outputTokens: { total: 6, text: undefined, reasoning: undefined },
  raw: { input_tokens: 7, output_tokens: 6 },
};
const finish: LanguageModelV3StreamPart = {
  type: 'finish',
  usage,
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  providerMetadata: { anthropic: { stopSequence: null } },
};
const call = { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: '{"key":"a"}' } as const;
// As @ai-sdk/anthropic streams a turn that reasons, says something and asks for a tool, with `raw` parts between.
const parts: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'msg_1', modelId: 'model-1-2026', timestamp },
  { type: 'reasoning-start', id: '0' },
  { type: 'reasoning-delta', id: '0', delta: 'Need ' },
  { type: 'raw', rawValue: { type: 'ping' } },
  { type: 'reasoning-delta', id: '0', delta: 'a.' },
  { type: 'reasoning-delta', id: '0', delta: '', providerMetadata: { anthropic: { signature: 'sig-1' } } },
  { type: 'reasoning-end', id: '0' },
  { type: 'reasoning-start', id: '1', providerMetadata: { anthropic: { redactedData: 'REDACTED' } } },
  { type: 'reasoning-end', id: '1' },
  // A text may share its id with a reasoning: `ai` keeps the two apart.
  { type: 'text-start', id: '0' },
  { type: 'text-delta', id: '0', delta: 'Looking ' },
  { type: 'text-delta', id: '0', delta: 'it up.' },
  { type: 'text-end', id: '0' },
  { type: 'tool-input-start', id: 'call_1', toolName: 'lookup' },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"key":' },
  { type: 'tool-input-delta', id: 'call_1', delta: '"a"}' },
  { type: 'tool-input-end', id: 'call_1' },
  call,
  finish,
];

describe('generateResultOfStreamParts', () => {
  it('assembles the parts into the generate result they stand for, in the order its content started', () => {
    expect(generateResultOfStreamParts(model(), parts)).toEqual({
      content: [
        { type: 'reasoning', text: 'Need a.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
        { type: 'reasoning', text: '', providerMetadata: { anthropic: { redactedData: 'REDACTED' } } },
        { type: 'text', text: 'Looking it up.' },
        call,
      ],
      finishReason: finish.finishReason,
      usage,
      providerMetadata: finish.providerMetadata,
      response: { id: 'msg_1', modelId: 'model-1-2026', timestamp },
      warnings: [],
    });
  });

  it('keeps the last provider metadata a text was given, on its start, a delta or its end', () => {
    const cited = { anthropic: { citations: [{ type: 'char_location' }] } };
    const text: LanguageModelV3StreamPart[] = [
      { type: 'text-start', id: 't', providerMetadata: { anthropic: { first: true } } },
      { type: 'text-delta', id: 't', delta: 'x' },
      { type: 'text-end', id: 't', providerMetadata: cited },
      finish,
    ];
    expect(generateResultOfStreamParts(model(), text).content).toEqual([
      { type: 'text', text: 'x', providerMetadata: cited },
    ]);
  });

  it("keeps files, sources, provider-run tools' results and approval requests as content, as they came", () => {
    const whole: LanguageModelV3StreamPart[] = [
      { type: 'file', mediaType: 'image/png', data: 'AAEC' },
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
      { type: 'tool-result', toolCallId: 'srv_1', toolName: 'web_search', result: { hits: 1 } },
      { type: 'tool-approval-request', approvalId: 'ap_1', toolCallId: 'srv_2' },
      finish,
    ];
    expect(generateResultOfStreamParts(model(), whole).content).toEqual(whole.slice(0, -1));
  });
});

describe('neutralResultOfStreamParts', () => {
  it('maps the assembled result as neutralResultOf maps a generate result', () => {
    const neutral = neutralResultOfStreamParts(model(), parts);
    expect(neutral).toEqual(neutralResultOf(model(), generateResultOfStreamParts(model(), parts)));
    expect(neutral).toEqual({
      id: 'msg_1',
      model: 'model-1-2026',
      content: [
        { type: 'thinking', thinking: 'Need a.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'REDACTED' },
        { type: 'text', text: 'Looking it up.' },
        { type: 'tool_use', id: 'call_1', name: 'lookup', input: { key: 'a' } },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 7, outputTokens: 6, cacheReadTokens: 3, provider: usage.raw },
    });
  });

  it("reads a v2 model's stream (ai 5): its finish reason a string, its usage flat", () => {
    const v2 = [
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Hi' },
      { type: 'text-end', id: '0' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 1, cachedInputTokens: 2 } },
    ];
    expect(neutralResultOfStreamParts(model('v2'), v2)).toMatchObject({
      id: '',
      model: 'model-1',
      content: [{ type: 'text', text: 'Hi' }],
      stopReason: 'end_turn',
      usage: { inputTokens: 3, outputTokens: 1, cacheReadTokens: 2 },
    });
  });
});

describe('generateResultOfStreamParts: what it refuses', () => {
  it('an error part is PROVIDER_FAILED, with what the provider said', () => {
    const failed = [
      ...parts.slice(0, 5),
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ];
    const error = thrown(() => generateResultOfStreamParts(model(), failed));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('Overloaded');
  });

  it('a stream that ends before its finish part is PROVIDER_FAILED', () => {
    const error = thrown(() => generateResultOfStreamParts(model(), parts.slice(0, -1)));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('before its finish part');
  });

  it.each<[string, unknown[]]>([
    ['a part of a kind it does not know', [{ type: 'sparkle', id: 'x' }, finish]],
    ['a part that is not an object with a type', ['text-delta', finish]],
    ['a delta for a text never started', [{ type: 'text-delta', id: '9', delta: 'x' }, finish]],
    ['an end for a reasoning never started', [{ type: 'reasoning-end', id: '9' }, finish]],
    ['a text started twice', [{ type: 'text-start', id: '0' }, { type: 'text-start', id: '0' }, finish]],
    ['a text delta with no string delta', [{ type: 'text-start', id: '0' }, { type: 'text-delta', id: '0' }, finish]],
    ['a text never ended', [{ type: 'text-start', id: '0' }, finish]],
  ])('%s is PROVIDER_UNMAPPED', (_name, broken) => {
    expect(thrown(() => generateResultOfStreamParts(model(), broken)).code).toBe('PROVIDER_UNMAPPED');
  });
});
