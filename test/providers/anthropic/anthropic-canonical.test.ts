import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isForkpointError } from '../../../src/errors/index.js';
import { neutralRequestOfAnthropicBody } from '../../../src/providers/anthropic/anthropic-canonical.js';
import { hashOf } from './expressible-requests.js';

// A body with one of each field a loop commonly sends, written as the Messages API documents it.
const body: JsonObject = {
  model: 'claude-sonnet-5',
  max_tokens: 1024,
  system: 'You triage claims.',
  temperature: 0.5,
  top_p: 0.9,
  top_k: 40,
  stop_sequences: ['END'],
  thinking: { type: 'enabled', budget_tokens: 2048 },
  tool_choice: { type: 'auto' },
  tools: [{ name: 'ocr_document', description: 'Reads a form.', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Settle CLM-91077.' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Need the form.', signature: 'sig-1' },
        { type: 'text', text: 'Reading it.', citations: null },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'ocr_document',
          input: { document_id: 'D-1' },
          caller: { type: 'direct' },
        },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"damage_area_cm2":205}' }],
    },
  ],
};

const hashWith = (change: (copy: Record<string, JsonValue>) => void): string => {
  const copy = structuredClone(body) as Record<string, JsonValue>;
  change(copy);
  return hashOf(neutralRequestOfAnthropicBody(copy).request);
};
const messageAt = (copy: Record<string, JsonValue>, i: number) =>
  (copy.messages as Record<string, JsonValue>[])[i] ?? {};
const blockAt = (copy: Record<string, JsonValue>, i: number, j: number) =>
  (messageAt(copy, i).content as Record<string, JsonValue>[])[j] ?? {};

describe('neutralRequestOfAnthropicBody: the mapping', () => {
  it('maps each field to its neutral one, the shorthands to their long forms, and the rest verbatim', () => {
    const { request, stream, outsideHash } = neutralRequestOfAnthropicBody(body);
    expect(request).toEqual({
      model: 'claude-sonnet-5',
      system: 'You triage claims.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Settle CLM-91077.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need the form.', signature: 'sig-1' },
            { type: 'text', text: 'Reading it.' },
            { type: 'tool_use', id: 'toolu_1', name: 'ocr_document', input: { document_id: 'D-1' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: '{"damage_area_cm2":205}', isError: false }],
        },
      ],
      tools: [{ name: 'ocr_document', description: 'Reads a form.', inputSchema: { type: 'object' } }],
      params: {
        maxTokens: 1024,
        temperature: 0.5,
        topP: 0.9,
        topK: 40,
        stopSequences: ['END'],
        thinking: { budgetTokens: 2048 },
        provider: { anthropic: { tool_choice: { type: 'auto' } } },
      },
    });
    expect(stream).toBe(false);
    expect(outsideHash).toEqual({});
  });

  it('keeps what the neutral shape cannot hold exactly verbatim under params.provider.anthropic', () => {
    const tools = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }];
    const { request } = neutralRequestOfAnthropicBody({
      model: 'm',
      max_tokens: 10,
      system: '',
      tools,
      thinking: { type: 'adaptive' },
      service_tier: 'auto',
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }],
    });
    expect(request.system).toBe('');
    expect(request.tools).toEqual([]);
    expect(request.params).toEqual({
      maxTokens: 10,
      provider: { anthropic: { system: '', tools, thinking: { type: 'adaptive' }, service_tier: 'auto' } },
    });
    expect(request.messages[0]?.content).toEqual([
      {
        type: 'provider',
        provider: 'anthropic',
        block: { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
      },
    ]);
  });

  it('tells apart a tool result with no content, an empty one, and one of blocks', () => {
    const resultOf = (block: JsonObject) =>
      neutralRequestOfAnthropicBody({
        model: 'm',
        max_tokens: 1,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', ...block }] }],
      });
    const hashes = [
      {},
      { content: '' },
      { content: [{ type: 'text', text: '' }] },
      { content: '[{"type":"text","text":""}]' },
    ].map((block) => hashOf(resultOf(block).request));
    expect(new Set(hashes).size).toBe(4);
    const blocks = resultOf({
      content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }],
      is_error: true,
    });
    expect(blocks.request.messages[0]?.content).toEqual([
      { type: 'tool_result', toolUseId: 't', content: [{ type: 'text', text: 'x' }], isError: true },
    ]);
    expect(blocks.outsideHash).toEqual({ 'messages[0].content[0].content[0].cache_control': { type: 'ephemeral' } });
  });

  it('hashes the same request the same whether it says a default or leaves it out', () => {
    const base = hashWith(() => undefined);
    expect(hashWith((copy) => (blockAt(copy, 2, 0).is_error = false))).toBe(base);
    expect(hashWith((copy) => delete blockAt(copy, 1, 2).caller)).toBe(base);
    expect(hashWith((copy) => delete blockAt(copy, 1, 1).citations)).toBe(base);
    expect(hashWith((copy) => (messageAt(copy, 0).content = [{ type: 'text', text: 'Settle CLM-91077.' }]))).toBe(base);
    expect(hashWith((copy) => (copy.metadata = { user_id: 'someone-else' }))).toBe(base);
    expect(hashWith((copy) => (copy.stream = true))).toBe(base);
    expect(hashWith((copy) => (copy.cache_control = { type: 'ephemeral' }))).toBe(base);
  });
});

describe('neutralRequestOfAnthropicBody: every model-affecting field is in the hash', () => {
  const base = hashWith(() => undefined);
  it.each<[string, (copy: Record<string, JsonValue>) => void]>([
    ['model', (copy) => (copy.model = 'claude-opus-5')],
    ['max_tokens', (copy) => (copy.max_tokens = 1025)],
    ['system', (copy) => (copy.system = 'You triage claims. It is 2026-03-09.')],
    ['a system of blocks', (copy) => (copy.system = [{ type: 'text', text: 'You triage claims.' }])],
    ['temperature', (copy) => (copy.temperature = 0.6)],
    ['top_p', (copy) => (copy.top_p = 0.95)],
    ['top_k', (copy) => (copy.top_k = 41)],
    ['stop_sequences', (copy) => (copy.stop_sequences = ['STOP'])],
    ['thinking budget', (copy) => (copy.thinking = { type: 'enabled', budget_tokens: 4096 })],
    ['thinking kind', (copy) => (copy.thinking = { type: 'adaptive' })],
    ['tool_choice', (copy) => (copy.tool_choice = { type: 'any' })],
    ['service_tier', (copy) => (copy.service_tier = 'standard_only')],
    ['a field the API adds', (copy) => (copy.output_config = { effort: 'low' })],
    ['a beta given as a field', (copy) => (copy.betas = ['context-1m-2025-08-07'])],
    [
      'a tool schema',
      (copy) =>
        (copy.tools = [
          {
            name: 'ocr_document',
            description: 'Reads a form.',
            input_schema: { type: 'object', required: ['document_id'] },
          },
        ]),
    ],
    [
      'a tool description',
      (copy) => (copy.tools = [{ name: 'ocr_document', description: 'Reads.', input_schema: { type: 'object' } }]),
    ],
    ['no tools', (copy) => delete copy.tools],
    ['a user text', (copy) => (messageAt(copy, 0).content = 'Settle CLM-91078.')],
    ['a role', (copy) => (messageAt(copy, 0).role = 'assistant')],
    ['a thinking text', (copy) => (blockAt(copy, 1, 0).thinking = 'Need the policy.')],
    ['a citation', (copy) => (blockAt(copy, 1, 1).citations = [{ type: 'char_location', cited_text: 'x' }])],
    ['a tool input', (copy) => (blockAt(copy, 1, 2).input = { document_id: 'D-2' })],
    ['a tool name', (copy) => (blockAt(copy, 1, 2).name = 'fetch_policy')],
    ['a tool result', (copy) => (blockAt(copy, 2, 0).content = '{"damage_area_cm2":2050}')],
    ['a tool error flag', (copy) => (blockAt(copy, 2, 0).is_error = true)],
    ['a message dropped', (copy) => (copy.messages = (copy.messages as JsonValue[]).slice(0, 2))],
  ])('changes the hash when %s changes', (_field, change) => {
    expect(hashWith(change)).not.toBe(base);
  });

  it('changes the hash for a beta given in the header', () => {
    expect(hashOf(neutralRequestOfAnthropicBody(body, { betas: ['context-1m-2025-08-07'] }).request)).not.toBe(base);
    const both = ['a-2025-01-01', 'b-2025-01-01'];
    expect(hashOf(neutralRequestOfAnthropicBody(body, { betas: both }).request)).toBe(
      hashOf(neutralRequestOfAnthropicBody(body, { betas: [...both].reverse() }).request),
    );
  });
});

describe('neutralRequestOfAnthropicBody: what it refuses', () => {
  it.each<[string, (copy: Record<string, JsonValue>) => void, string]>([
    ['a missing model', (copy) => delete copy.model, 'model'],
    ['max_tokens as text', (copy) => (copy.max_tokens = '1024'), 'max_tokens'],
    ['messages that are not a list', (copy) => (copy.messages = { role: 'user' }), 'messages'],
    ['a message that is not an object', (copy) => (copy.messages = ['hi']), 'messages[0]'],
    ['a system role in messages', (copy) => (messageAt(copy, 0).role = 'system'), 'messages[0].role'],
    ['a field a message does not have', (copy) => (messageAt(copy, 0).name = 'bob'), 'messages[0].name'],
    ['a content that is a number', (copy) => (messageAt(copy, 0).content = 3), 'messages[0].content'],
    ['a block without a type', (copy) => (messageAt(copy, 0).content = [{ text: 'hi' }]), 'messages[0].content[0]'],
    [
      'an unknown block kind',
      (copy) => (messageAt(copy, 0).content = [{ type: 'hologram', frames: [1] }]),
      'messages[0].content[0].type',
    ],
    ['a text that is not a string', (copy) => (blockAt(copy, 1, 1).text = 7), 'messages[1].content[1].text'],
    [
      'a field a text block does not have',
      (copy) => (blockAt(copy, 1, 1).tone = 'warm'),
      'messages[1].content[1].tone',
    ],
    [
      'citations that are not objects',
      (copy) => (blockAt(copy, 1, 1).citations = ['x']),
      'messages[1].content[1].citations',
    ],
    ['a thinking without its signature', (copy) => delete blockAt(copy, 1, 0).signature, 'messages[1].content[0]'],
    [
      'a tool input that is not an object',
      (copy) => (blockAt(copy, 1, 2).input = 'D-1'),
      'messages[1].content[2].input',
    ],
    [
      'a tool call a server tool made',
      (copy) => (blockAt(copy, 1, 2).caller = { type: 'code_execution_20250825', tool_id: 's' }),
      'messages[1].content[2]',
    ],
    [
      'a tool result without its call id',
      (copy) => delete blockAt(copy, 2, 0).tool_use_id,
      'messages[2].content[0].tool_use_id',
    ],
    [
      'an is_error that is not a boolean',
      (copy) => (blockAt(copy, 2, 0).is_error = 'yes'),
      'messages[2].content[0].is_error',
    ],
    [
      'a tool result content that is an object',
      (copy) => (blockAt(copy, 2, 0).content = { area: 205 }),
      'messages[2].content[0].content',
    ],
    ['a temperature as text', (copy) => (copy.temperature = 'hot'), 'temperature'],
    ['stop_sequences that are not strings', (copy) => (copy.stop_sequences = [1]), 'stop_sequences'],
    ['a thinking that is a string', (copy) => (copy.thinking = 'on'), 'thinking'],
    ['a system that is a number', (copy) => (copy.system = 1), 'system'],
    ['a system block that is a string', (copy) => (copy.system = ['Be brief.']), 'system[0]'],
    ['tools that are not a list', (copy) => (copy.tools = { name: 'x' }), 'tools'],
    ['a tool that is not an object', (copy) => (copy.tools = ['ocr_document']), 'tools[0]'],
    ['a stream flag as text', (copy) => (copy.stream = 'yes'), 'stream'],
    ['betas that are not strings', (copy) => (copy.betas = [1]), 'betas'],
  ])('is PROVIDER_UNMAPPED for %s, naming the field', (_what, change, field) => {
    const copy = structuredClone(body) as Record<string, JsonValue>;
    change(copy);
    let thrown: unknown;
    try {
      neutralRequestOfAnthropicBody(copy);
    } catch (error) {
      thrown = error;
    }
    if (!isForkpointError(thrown)) throw new Error(`expected a ForkpointError, got ${String(thrown)}`);
    expect(thrown.code).toBe('PROVIDER_UNMAPPED');
    expect(thrown.details).toMatchObject({ field });
    expect(thrown.message).toContain(`request's ${field} cannot be mapped`);
    expect(thrown.message).toContain('send it as the Messages API documents it');
  });

  it('is PROVIDER_UNMAPPED for a body that is not plain JSON', () => {
    const notJson = { ...body, max_tokens: Number.NaN };
    expect(() => neutralRequestOfAnthropicBody(notJson)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_UNMAPPED', message: expect.stringContaining('$.max_tokens') }),
    );
  });
});
