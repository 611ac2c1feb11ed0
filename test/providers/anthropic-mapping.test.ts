import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart, ModelRequest, ModelResponse } from '../../src/conversation/index.js';
import type { JsonObject } from '../../src/json/index.js';
import type { EmulatedAnswer, ProviderEmulator } from '../../src/testing/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { fromAnthropic, type FromAnthropicOptions } from '../../src/providers/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { EMULATED_MODEL } from '../support/emulators/anthropic-subjects.js';

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const provider = (maxRetries = 0, options?: FromAnthropicOptions) =>
  fromAnthropic(new Anthropic({ apiKey: 'test-key', baseURL: emulator.url, maxRetries }), options);
const reply = (content: MessagePart[], more: Partial<ModelResponse> = {}): ModelResponse => ({
  id: 'msg_mapping',
  model: EMULATED_MODEL,
  content,
  stopReason: 'end_turn',
  usage: { inputTokens: 3, outputTokens: 2 },
  ...more,
});
const request = (more: Partial<ModelRequest> = {}): ModelRequest => ({
  model: EMULATED_MODEL,
  system: '',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  tools: [],
  params: { maxTokens: 100 },
  ...more,
});
/** The adapter's answer to `answers` for `asked`, and the body the emulator received last. */
async function exchange(answers: EmulatedAnswer[], asked = request(), client = provider()) {
  emulator.script(answers);
  const response = await client.respond(asked);
  return { response, body: emulator.received().at(-1) };
}
const answered = (response: ModelResponse): EmulatedAnswer[] => [{ kind: 'response', response }];
async function failure(answers: EmulatedAnswer[], client = provider(), asked = request()) {
  emulator.script(answers);
  const error: unknown = await client.respond(asked).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isForkpointError(error)) throw new Error(`expected a ForkpointError, got ${String(error)}`);
  return error;
}

const citation = {
  type: 'char_location',
  cited_text: 'the sky',
  document_index: 0,
  start_char_index: 0,
  end_char_index: 7,
};
const serverToolUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'sky' } };
const searchResult = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: [
    { type: 'web_search_result', url: 'https://example.com', title: 'Sky', encrypted_content: 'enc', page_age: null },
  ],
};

describe('fromAnthropic: the request', () => {
  it('sends every part kind as its block, the system, the tools and every set parameter, in the API names', async () => {
    const { body } = await exchange(
      answered(reply([{ type: 'text', text: 'ok' }])),
      request({
        system: 'Be brief.',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Why is the sky blue?', citations: [citation] }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Rayleigh.', signature: 'sig-1' },
              { type: 'redacted_thinking', data: 'opaque-1' },
              { type: 'provider', provider: 'anthropic', block: serverToolUse },
              { type: 'provider', provider: 'anthropic', block: searchResult },
              { type: 'text', text: 'Checking.' },
              { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { key: 'sky' } },
              { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { key: 'sea' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolUseId: 'toolu_1', content: 'blue', isError: false },
              { type: 'tool_result', toolUseId: 'toolu_2', content: { error: 'no such key' }, isError: true },
            ],
          },
        ],
        tools: [{ name: 'lookup', description: 'Looks a key up.', inputSchema: { type: 'object' } }],
        params: {
          maxTokens: 2048,
          temperature: 0.5,
          topP: 0.9,
          topK: 40,
          stopSequences: ['END'],
          thinking: { budgetTokens: 1024 },
          provider: { anthropic: { tool_choice: { type: 'auto' }, service_tier: 'auto', max_tokens: 1 } },
        },
      }),
    );
    expect(body).toEqual({
      tool_choice: { type: 'auto' },
      service_tier: 'auto',
      model: EMULATED_MODEL,
      max_tokens: 2048,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Why is the sky blue?', citations: [citation] }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Rayleigh.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque-1' },
            serverToolUse,
            searchResult,
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { key: 'sky' } },
            { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { key: 'sea' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'blue' },
            // Not a string: its JSON text, since the API reads an array there as its own content blocks.
            { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"error":"no such key"}', is_error: true },
          ],
        },
      ],
      tools: [{ name: 'lookup', description: 'Looks a key up.', input_schema: { type: 'object' } }],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it('sends only what is set: no system when it is empty, no tools, no sampling parameter the params leave out', async () => {
    const { body } = await exchange(answered(reply([{ type: 'text', text: 'ok' }])));
    expect(body).toEqual({
      model: EMULATED_MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
  });

  it("adds the options' metadata to a request whose own parameters set none, and sends their own otherwise", async () => {
    const client = provider(0, { metadata: { user_id: 'end-user-7' } });
    const { body } = await exchange(answered(reply([{ type: 'text', text: 'ok' }])), request(), client);
    expect(body).toMatchObject({ metadata: { user_id: 'end-user-7' } });
    const own = request({
      params: { maxTokens: 100, provider: { anthropic: { metadata: { user_id: 'their-own' } } } },
    });
    const second = await exchange(answered(reply([{ type: 'text', text: 'ok' }])), own, client);
    expect(second.body).toMatchObject({ metadata: { user_id: 'their-own' } });
  });

  it("leaves another provider's own block out of the request, which Anthropic could not take, and says so", async () => {
    const reasoning: MessagePart = { type: 'provider', provider: 'openai', block: { type: 'reasoning', id: 'rs_1' } };
    const foreign = request({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [reasoning, { type: 'text', text: 'Looking.' }] },
        { role: 'user', content: [{ type: 'text', text: 'go on' }] },
      ],
    });
    const { body } = await exchange(answered(reply([{ type: 'text', text: 'done' }])), foreign);
    expect(JSON.stringify(body)).not.toContain('rs_1');
    expect(body).toMatchObject({
      messages: [{}, { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] }, {}],
    });
    expect(provider().leavesOut?.(foreign)).toEqual([reasoning]);
    expect(provider().leavesOut?.(request())).toEqual([]);
  });
});

describe('fromAnthropic: the response', () => {
  it('maps every block kind, and keeps the kinds the neutral shape lacks as provider parts, verbatim and in place', async () => {
    const future = { type: 'hologram_block', id: 'holo_1', frames: [1, 2, 3] };
    const content: MessagePart[] = [
      { type: 'thinking', thinking: 'Let me search.', signature: 'sig-2' },
      { type: 'redacted_thinking', data: 'opaque-2' },
      { type: 'provider', provider: 'anthropic', block: serverToolUse },
      { type: 'provider', provider: 'anthropic', block: searchResult },
      { type: 'text', text: 'The sky scatters blue light.', citations: [citation] },
      { type: 'provider', provider: 'anthropic', block: future },
      { type: 'tool_use', id: 'toolu_3', name: 'lookup', input: { key: 'sky' } },
    ];
    const { response } = await exchange(answered(reply(content, { stopReason: 'tool_use' })));
    expect(response).toEqual({
      id: 'msg_mapping',
      model: EMULATED_MODEL,
      content,
      stopReason: 'tool_use',
      usage: {
        inputTokens: 3,
        outputTokens: 2,
        provider: {
          input_tokens: 3,
          output_tokens: 2,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
        },
      },
    });
  });

  it.each([
    ['end_turn', { stopReason: 'end_turn' }],
    ['tool_use', { stopReason: 'tool_use' }],
    ['max_tokens', { stopReason: 'max_tokens' }],
    ['stop_sequence', { stopReason: 'stop_sequence' }],
    ['pause_turn', { stopReason: 'pause_turn' }],
    ['refusal', { stopReason: 'refusal' }],
    [
      'model_context_window_exceeded',
      { stopReason: 'context_window_exceeded', providerStopReason: 'model_context_window_exceeded' },
    ],
    ['compaction', { stopReason: 'other', providerStopReason: 'compaction' }],
  ])('maps stop_reason %s', async (wire, expected) => {
    // The emulator writes a scripted providerStopReason as the wire's stop_reason.
    const { response } = await exchange(answered(reply([{ type: 'text', text: 'x' }], { providerStopReason: wire })));
    expect({ stopReason: response.stopReason, providerStopReason: response.providerStopReason }).toEqual({
      providerStopReason: undefined,
      ...expected,
    });
  });

  it('normalises the usage: uncached input, cache reads and writes, output and its thinking, the raw object kept', async () => {
    const raw = {
      service_tier: 'standard',
      cache_creation: { ephemeral_5m_input_tokens: 30, ephemeral_1h_input_tokens: 0 },
    };
    const usage = {
      inputTokens: 12,
      outputTokens: 50,
      cacheReadTokens: 900,
      cacheWriteTokens: 30,
      reasoningTokens: 20,
      provider: raw,
    };
    const { response } = await exchange(answered(reply([{ type: 'text', text: 'x' }], { usage })));
    expect(response.usage).toEqual({
      inputTokens: 12,
      outputTokens: 50,
      cacheReadTokens: 900,
      cacheWriteTokens: 30,
      reasoningTokens: 20,
      provider: {
        input_tokens: 12,
        output_tokens: 50,
        cache_read_input_tokens: 900,
        cache_creation_input_tokens: 30,
        output_tokens_details: { thinking_tokens: 20 },
        ...raw,
      },
    });
  });

  it('leaves a count the API left out or wrote as null absent', async () => {
    const usage = { inputTokens: 5, outputTokens: 1, provider: { cache_read_input_tokens: 0 } };
    const { response } = await exchange(answered(reply([{ type: 'text', text: 'x' }], { usage })));
    expect(response.usage).toMatchObject({ inputTokens: 5, outputTokens: 1, cacheReadTokens: 0 });
    expect(response.usage).not.toHaveProperty('cacheWriteTokens');
    expect(response.usage).not.toHaveProperty('reasoningTokens');
  });

  it.each([
    ['a block without a type', { text: 'typeless' }, 'a content block'],
    ['a text that is not a string', { type: 'text', text: 42 }, 'a text block'],
    ['a thinking block without its signature', { type: 'thinking', thinking: 'hm' }, 'a thinking block'],
    [
      'a tool call a server tool made',
      { type: 'tool_use', id: 't', name: 'n', input: {}, caller: { type: 'code_execution_20250825', tool_id: 'srv' } },
      'a tool_use block',
    ],
  ])('is PROVIDER_UNMAPPED for %s, with the block in the error', async (_what, block: JsonObject, field) => {
    const error = await failure(answered(reply([{ type: 'provider', provider: 'anthropic', block }])));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details).toMatchObject({ field, data: block });
  });
});

describe('fromAnthropic: errors', () => {
  it("is PROVIDER_REJECTED on a 400, with the API's own message", async () => {
    const error = await failure([{ kind: 'error', status: 400, message: 'messages.0: tool_use ids must be unique' }]);
    expect(error.code).toBe('PROVIDER_REJECTED');
    expect(error.message).toContain('messages.0: tool_use ids must be unique');
    expect(error.message).toContain('(400)');
  });

  it('is PROVIDER_FAILED on a 429 the SDK may not retry, and on a 500', async () => {
    expect((await failure([{ kind: 'error', status: 429, message: 'slow down' }])).code).toBe('PROVIDER_FAILED');
    const error = await failure([{ kind: 'error', status: 500, message: 'internal' }]);
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('(500)');
  });

  it("answers after a 429 through the SDK's own retry, which the emulator's retry-after-ms makes immediate", async () => {
    const before = emulator.received().length;
    const started = Date.now();
    const { response } = await exchange(
      [{ kind: 'error', status: 429, message: 'slow down' }, ...answered(reply([{ type: 'text', text: 'after' }]))],
      request(),
      provider(2),
    );
    expect(response.content).toEqual([{ type: 'text', text: 'after' }]);
    expect(emulator.received().length - before).toBe(2);
    expect(Date.now() - started).toBeLessThan(400); // the SDK's own backoff without the header is 500 ms or more
  });

  it('is PROVIDER_FAILED when the connection drops with no answer', async () => {
    const error = await failure([{ kind: 'drop' }]);
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('could not be reached');
  });

  it('is USAGE, at once, for an object that is not an Anthropic client', () => {
    for (const notClient of [{}, { messages: {} }, { messages: { create: 'no' } }, null]) {
      expect(() => {
        Reflect.apply(fromAnthropic, undefined, [notClient]);
      }).toThrow(
        expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('client.messages.create') }),
      );
    }
  });
});
