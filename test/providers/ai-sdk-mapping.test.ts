import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV2, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart, ModelRequest, ModelResponse } from '../../src/conversation/index.js';
import type { EmulatedAnswer, ProviderEmulator } from '../../src/testing/index.js';
import type { ModelProvider } from '../../src/world/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { fromAiSdk, type AiSdkLanguageModel } from '../../src/providers/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { EMULATED_MODEL } from '../support/emulators/anthropic-subjects.js';

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

/** fromAiSdk over @ai-sdk/anthropic's model, pointed at the emulator. */
const overAnthropic = (maxRetries = 0) =>
  fromAiSdk(createAnthropic({ baseURL: `${emulator.url}/v1`, apiKey: 'test-key' })(EMULATED_MODEL), { maxRetries });
const reply = (content: MessagePart[], more: Partial<ModelResponse> = {}): ModelResponse => ({
  id: 'msg_ai_sdk',
  model: EMULATED_MODEL,
  content,
  stopReason: 'end_turn',
  usage: { inputTokens: 3, outputTokens: 2 },
  ...more,
});
const answered = (response: ModelResponse): EmulatedAnswer[] => [{ kind: 'response', response }];
const request = (more: Partial<ModelRequest> = {}): ModelRequest => ({
  model: EMULATED_MODEL,
  system: '',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  tools: [],
  params: { maxTokens: 100 },
  ...more,
});
async function exchange(answers: EmulatedAnswer[], asked = request(), provider = overAnthropic()) {
  emulator.script(answers);
  const response = await provider.respond(asked);
  return { response, body: emulator.received().at(-1) };
}
async function failure(provider: ModelProvider, asked = request()) {
  const error: unknown = await provider.respond(asked).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isForkpointError(error)) throw new Error(`expected a ForkpointError, got ${String(error)}`);
  return error;
}

/** A v3 model (ai/test's mock) answering `result`, with the calls it was given. */
const mockV3 = (result: Partial<LanguageModelV3GenerateResult>, provider = 'acme.chat') => {
  const model = new MockLanguageModelV3({
    provider,
    modelId: 'acme-1',
    doGenerate: {
      content: [],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 4, text: 4, reasoning: undefined },
      },
      warnings: [],
      ...result,
    },
  });
  return { model, provider: fromAiSdk(model) };
};

const toolLoop: ModelRequest['messages'] = [
  { role: 'user', content: [{ type: 'text', text: 'Look a and b up.' }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-ai-1' },
      { type: 'redacted_thinking', data: 'opaque-ai-1' },
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_a', name: 'lookup', input: { key: 'a' } },
      { type: 'tool_use', id: 'toolu_b', name: 'lookup', input: { key: 'b' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: 'toolu_a', content: 'value of a', isError: false },
      { type: 'tool_result', toolUseId: 'toolu_b', content: { error: 'no such key' }, isError: true },
      { type: 'text', text: 'Go on.' },
    ],
  },
];

describe('fromAiSdk: the call options', () => {
  it('writes the prompt, tools and settings in the specification names, tool results in a tool message under their call names', async () => {
    const { model, provider } = mockV3({ content: [{ type: 'text', text: 'done' }] });
    await provider.respond(
      request({
        system: 'Be brief.',
        messages: toolLoop,
        tools: [{ name: 'lookup', description: 'Looks a key up.', inputSchema: { type: 'object' } }],
        params: {
          maxTokens: 300,
          temperature: 0.2,
          topP: 0.8,
          topK: 5,
          stopSequences: ['END'],
          provider: { 'ai-sdk': { seed: 7 } },
        },
      }),
    );
    expect(model.doGenerateCalls).toEqual([
      {
        seed: 7,
        prompt: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Look a and b up.' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Two lookups.', providerOptions: { anthropic: { signature: 'sig-ai-1' } } },
              { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'opaque-ai-1' } } },
              { type: 'text', text: 'Looking.' },
              { type: 'tool-call', toolCallId: 'toolu_a', toolName: 'lookup', input: { key: 'a' } },
              { type: 'tool-call', toolCallId: 'toolu_b', toolName: 'lookup', input: { key: 'b' } },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'toolu_a',
                toolName: 'lookup',
                output: { type: 'text', value: 'value of a' },
              },
              {
                type: 'tool-result',
                toolCallId: 'toolu_b',
                toolName: 'lookup',
                output: { type: 'error-json', value: { error: 'no such key' } },
              },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
        ],
        tools: [{ type: 'function', name: 'lookup', description: 'Looks a key up.', inputSchema: { type: 'object' } }],
        temperature: 0.2,
        topP: 0.8,
        topK: 5,
        stopSequences: ['END'],
        maxOutputTokens: 300,
      },
    ]);
  });

  it('reaches the Anthropic wire as fromAnthropic writes it: reasoning with its signature and redacted data, max_tokens as the params say with a thinking budget', async () => {
    const { body } = await exchange(
      answered(reply([{ type: 'text', text: 'ok' }])),
      request({
        messages: toolLoop,
        params: {
          maxTokens: 3000,
          thinking: { budgetTokens: 1024 },
          provider: { 'ai-sdk': { providerOptions: { anthropic: { sendReasoning: true } } } },
        },
      }),
    );
    expect(body).toMatchObject({
      model: EMULATED_MODEL,
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look a and b up.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-ai-1' },
            { type: 'redacted_thinking', data: 'opaque-ai-1' },
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'toolu_a', name: 'lookup', input: { key: 'a' } },
            { type: 'tool_use', id: 'toolu_b', name: 'lookup', input: { key: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: 'value of a' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: '{"error":"no such key"}', is_error: true },
            { type: 'text', text: 'Go on.' },
          ],
        },
      ],
    });
  });

  it("refuses a thinking budget for a provider whose option it does not know, and leaves another provider's own part out", async () => {
    const { model, provider } = mockV3({});
    const budget = await failure(provider, request({ params: { maxTokens: 100, thinking: { budgetTokens: 1024 } } }));
    expect(budget).toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining("params.provider['ai-sdk'].providerOptions"),
    });
    const foreign = request({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [{ type: 'provider', provider: 'anthropic', block: { type: 'server_tool_use', id: 's' } }],
        },
      ],
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    await provider.respond(foreign);
    expect(JSON.stringify(model.doGenerateCalls[0]?.prompt)).not.toContain('server_tool_use');
    expect(provider.leavesOut?.(foreign)).toEqual([foreign.messages[1]?.content[0]]);
  });
});

describe('fromAiSdk: the result', () => {
  it("maps @ai-sdk/anthropic's content: reasoning with its signature, redacted reasoning, cited text, tool calls; a server tool's call and result kept", async () => {
    const webCitation = {
      type: 'web_search_result_location',
      cited_text: 'blue',
      url: 'https://example.com',
      title: 'Sky',
      encrypted_index: 'ix',
    };
    const { response } = await exchange(
      answered(
        reply(
          [
            { type: 'thinking', thinking: 'Search first.', signature: 'sig-ai-2' },
            { type: 'redacted_thinking', data: 'opaque-ai-2' },
            {
              type: 'provider',
              provider: 'anthropic',
              block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'sky' } },
            },
            { type: 'text', text: 'It is blue.', citations: [webCitation] },
            { type: 'tool_use', id: 'toolu_c', name: 'lookup', input: { key: 'c' } },
          ],
          { stopReason: 'tool_use' },
        ),
      ),
    );
    expect(response.content).toEqual([
      { type: 'thinking', thinking: 'Search first.', signature: 'sig-ai-2' },
      { type: 'redacted_thinking', data: 'opaque-ai-2' },
      {
        type: 'provider',
        provider: 'anthropic.messages',
        block: expect.objectContaining({ type: 'tool-call', toolCallId: 'srvtoolu_1', providerExecuted: true }),
      },
      { type: 'text', text: 'It is blue.', citations: [webCitation] },
      {
        type: 'provider',
        provider: 'anthropic.messages',
        block: expect.objectContaining({ type: 'source', url: 'https://example.com' }),
      },
      { type: 'tool_use', id: 'toolu_c', name: 'lookup', input: { key: 'c' } },
    ]);
    expect(response).toMatchObject({ id: 'msg_ai_sdk', model: EMULATED_MODEL, stopReason: 'tool_use' });
  });

  it('keeps what the neutral shape has no kind for, verbatim, and sends it back as `ai` would: reasoning and its metadata, a provider-run tool, a file; a source left out', async () => {
    const openaiReasoning = { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc' } };
    const content: LanguageModelV3GenerateResult['content'] = [
      { type: 'reasoning', text: 'Thinking in OpenAI terms.', providerMetadata: openaiReasoning },
      { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{"q":"x"}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 1 } },
      { type: 'source', sourceType: 'url', id: 'src_1', url: 'https://example.com' },
      { type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) },
    ];
    const { model, provider } = mockV3({ content });
    const response = await provider.respond(request());
    expect(response.content).toEqual([
      {
        type: 'provider',
        provider: 'acme.chat',
        block: { type: 'reasoning', text: 'Thinking in OpenAI terms.', providerMetadata: openaiReasoning },
      },
      {
        type: 'provider',
        provider: 'acme.chat',
        block: {
          type: 'tool-call',
          toolCallId: 'ws_1',
          toolName: 'web_search',
          input: '{"q":"x"}',
          providerExecuted: true,
        },
      },
      {
        type: 'provider',
        provider: 'acme.chat',
        block: { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 1 } },
      },
      {
        type: 'provider',
        provider: 'acme.chat',
        block: { type: 'source', sourceType: 'url', id: 'src_1', url: 'https://example.com' },
      },
      { type: 'provider', provider: 'acme.chat', block: { type: 'file', mediaType: 'image/png', data: 'AQID' } },
    ]);
    await provider.respond(
      request({ messages: [...request().messages, { role: 'assistant', content: response.content }] }),
    );
    expect(model.doGenerateCalls[1]?.prompt.at(-1)).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Thinking in OpenAI terms.', providerOptions: openaiReasoning },
        { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: { q: 'x' }, providerExecuted: true },
        {
          type: 'tool-result',
          toolCallId: 'ws_1',
          toolName: 'web_search',
          output: { type: 'json', value: { hits: 1 } },
        },
        { type: 'file', mediaType: 'image/png', data: 'AQID' },
      ],
    });
  });

  it.each([
    ['end_turn', { stopReason: 'end_turn' }],
    ['tool_use', { stopReason: 'tool_use', providerStopReason: undefined }],
    ['max_tokens', { stopReason: 'max_tokens' }],
    ['stop_sequence', { stopReason: 'stop_sequence' }],
    ['pause_turn', { stopReason: 'pause_turn' }],
    ['refusal', { stopReason: 'refusal' }],
    [
      'model_context_window_exceeded',
      { stopReason: 'context_window_exceeded', providerStopReason: 'model_context_window_exceeded' },
    ],
    ['compaction', { stopReason: 'other', providerStopReason: 'compaction' }],
  ])('maps the Anthropic stop_reason %s through its unified and raw finish reason', async (wire, expected) => {
    const { response } = await exchange(answered(reply([{ type: 'text', text: 'x' }], { providerStopReason: wire })));
    expect({ stopReason: response.stopReason, providerStopReason: response.providerStopReason }).toEqual({
      providerStopReason: undefined,
      ...expected,
    });
  });

  it.each([
    [
      { unified: 'stop', raw: 'stop' },
      { stopReason: 'end_turn', providerStopReason: 'stop' },
    ],
    [
      { unified: 'length', raw: 'length' },
      { stopReason: 'max_tokens', providerStopReason: 'length' },
    ],
    [{ unified: 'content-filter', raw: 'content_filter' }, { stopReason: 'content_filter' }],
    [
      { unified: 'tool-calls', raw: 'tool_calls' },
      { stopReason: 'tool_use', providerStopReason: 'tool_calls' },
    ],
    [
      { unified: 'error', raw: undefined },
      { stopReason: 'other', providerStopReason: 'error' },
    ],
    [
      { unified: 'other', raw: 'SAFETY' },
      { stopReason: 'other', providerStopReason: 'SAFETY' },
    ],
  ] as const)('maps the v3 finish reason %o', async (finishReason, expected) => {
    const { provider } = mockV3({ content: [{ type: 'text', text: 'x' }], finishReason });
    const response = await provider.respond(request());
    expect({ stopReason: response.stopReason, providerStopReason: response.providerStopReason }).toEqual({
      providerStopReason: undefined,
      ...expected,
    });
  });

  it("normalises @ai-sdk/anthropic's v3 usage: the uncached input, cache reads and writes, reasoning, the raw usage kept", async () => {
    const usage = {
      inputTokens: 12,
      outputTokens: 50,
      cacheReadTokens: 900,
      cacheWriteTokens: 30,
      reasoningTokens: 20,
    };
    const { response } = await exchange(answered(reply([{ type: 'text', text: 'x' }], { usage })));
    expect(response.usage).toEqual({
      ...usage,
      provider: {
        input_tokens: 12,
        output_tokens: 50,
        cache_read_input_tokens: 900,
        cache_creation_input_tokens: 30,
        output_tokens_details: { thinking_tokens: 20 },
      },
    });
  });

  it('reads a v2 model: its content, its finish reason, its usage (input less what a cache served), kept whole', async () => {
    const calls: unknown[] = [];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'legacy.chat',
      modelId: 'legacy-1',
      supportedUrls: {},
      doGenerate: (options) => {
        calls.push(options);
        return Promise.resolve({
          content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: '{"key":"k"}' }],
          finishReason: 'tool-calls',
          usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110, cachedInputTokens: 40, reasoningTokens: 3 },
          warnings: [],
        });
      },
      doStream: () => Promise.reject(new Error('not streamed')),
    };
    const response = await fromAiSdk(v2).respond(request());
    expect(response).toEqual({
      id: '',
      model: 'legacy-1',
      content: [{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { key: 'k' } }],
      // v2's finish reason is the specification's own word, not the provider's: nothing to keep beside it.
      stopReason: 'tool_use',
      usage: {
        inputTokens: 60,
        outputTokens: 10,
        cacheReadTokens: 40,
        reasoningTokens: 3,
        provider: { inputTokens: 100, outputTokens: 10, totalTokens: 110, cachedInputTokens: 40, reasoningTokens: 3 },
      },
    });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['a text that is not a string', { type: 'text', text: 42 }, 'a text part'],
    [
      'a tool call whose input is not JSON',
      { type: 'tool-call', toolCallId: 'c', toolName: 'n', input: '{oops' },
      'a tool-call part',
    ],
    ['a part without a type', { text: 'typeless' }, 'a content part'],
  ])('is PROVIDER_UNMAPPED for %s, with the part in the error', async (_what, part, field) => {
    const model: AiSdkLanguageModel = {
      specificationVersion: 'v3',
      provider: 'odd.chat',
      modelId: 'odd-1',
      doGenerate: () =>
        Promise.resolve({ content: [part], finishReason: { unified: 'stop', raw: undefined }, usage: {} }),
    };
    const error = await failure(fromAiSdk(model));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details).toMatchObject({ field, data: part });
  });
});

describe('fromAiSdk: errors', () => {
  it("is PROVIDER_REJECTED on a 400 (APICallError's statusCode), with the API's own message", async () => {
    emulator.script([{ kind: 'error', status: 400, message: 'max_tokens: must be at least 1' }]);
    const error = await failure(overAnthropic());
    expect(error.code).toBe('PROVIDER_REJECTED');
    expect(error.message).toContain('(400)');
    expect(error.message).toContain('max_tokens: must be at least 1');
    expect(error.message).toContain('anthropic.messages');
  });

  it('is PROVIDER_FAILED on a 429 with no retries left, on a 500 and on a dropped connection', async () => {
    emulator.script([{ kind: 'error', status: 429, message: 'slow down' }]);
    expect((await failure(overAnthropic())).code).toBe('PROVIDER_FAILED');
    emulator.script([{ kind: 'error', status: 500, message: 'internal' }]);
    expect(await failure(overAnthropic())).toMatchObject({
      code: 'PROVIDER_FAILED',
      message: expect.stringContaining('(500)'),
    });
    emulator.script([{ kind: 'drop' }]);
    expect(await failure(overAnthropic())).toMatchObject({
      code: 'PROVIDER_FAILED',
      message: expect.stringContaining('could not be reached'),
    });
  });

  it("answers after a 429 through generateText's retry, at once since the emulator asks for 1 ms", async () => {
    const before = emulator.received().length;
    const started = Date.now();
    const { response } = await exchange(
      [{ kind: 'error', status: 429, message: 'slow down' }, ...answered(reply([{ type: 'text', text: 'after' }]))],
      request(),
      overAnthropic(2),
    );
    expect(response.content).toEqual([{ type: 'text', text: 'after' }]);
    expect(emulator.received().length - before).toBe(2);
    expect(Date.now() - started).toBeLessThan(1500); // the backoff without the header is 2 s
  });

  it('does not retry a 400', async () => {
    const before = emulator.received().length;
    emulator.script([{ kind: 'error', status: 400, message: 'bad' }]);
    expect((await failure(overAnthropic(2))).code).toBe('PROVIDER_REJECTED');
    expect(emulator.received().length - before).toBe(1);
  });

  it('is USAGE, at once, for an object that is not a v2 or v3 language model', () => {
    const v4 = { specificationVersion: 'v4', provider: 'p', modelId: 'm', doGenerate: () => Promise.resolve({}) };
    for (const notModel of [{}, v4, { specificationVersion: 'v3', provider: 'p', modelId: 'm' }, null]) {
      expect(() => {
        Reflect.apply(fromAiSdk, undefined, [notModel]);
      }).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('model.doGenerate') }));
    }
  });
});
