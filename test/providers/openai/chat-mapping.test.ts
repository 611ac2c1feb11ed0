import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import type { ModelProvider } from '../../../src/world/index.js';
import { chatResponseOf, fromOpenAIChat } from '../../../src/providers/index.js';
import { openAIClientFor, startOpenAIEmulator, type OpenAIEmulator } from '../../support/emulators/openai-emulator.js';
import { chatCompletion, rejection, requestOf, userText } from './openai-fixtures.js';

let emulator: OpenAIEmulator;
let provider: ModelProvider;
beforeEach(async () => {
  emulator = await startOpenAIEmulator('chat');
  provider = fromOpenAIChat(openAIClientFor(emulator.url, 0));
});
afterEach(async () => {
  await emulator.close();
});

const answer = (body: JsonObject): void => {
  emulator.script([{ kind: 'wire', body }]);
};
const endTurn = (): void => {
  answer(chatCompletion({ content: 'done' }, 'stop'));
};

// A turn that asked for two tools, with Anthropic's reasoning and a block of Anthropic's own, as a run forked
// from Anthropic to OpenAI holds it; then the results, one a string, one JSON, and a line of the user's.
const forkedTurns: readonly Message[] = [
  userText('Look up T-1 and T-2.'),
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-anthropic' },
      { type: 'redacted_thinking', data: 'redacted-anthropic' },
      { type: 'text', text: 'Looking both up.' },
      {
        type: 'provider',
        provider: 'anthropic',
        block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search' },
      },
      { type: 'tool_use', id: 'call_a', name: 'look_up', input: { ticket: 'T-1' } },
      { type: 'tool_use', id: 'call_b', name: 'look_up', input: { ticket: 'T-2', deep: { nested: [1, 2] } } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Both came back.' },
      { type: 'tool_result', toolUseId: 'call_a', content: 'T-1 is open', isError: false },
      { type: 'tool_result', toolUseId: 'call_b', content: { error: 'no such ticket' }, isError: true },
    ],
  },
];

describe('fromOpenAIChat: the request', () => {
  it('sends the system prompt, the conversation, the tools and max_completion_tokens, and leaves out what Chat Completions cannot take', async () => {
    endTurn();
    await provider.respond(requestOf(forkedTurns));
    expect(emulator.paths()).toEqual(['/v1/chat/completions']);
    expect(emulator.received()).toEqual([
      {
        model: 'gpt-5.4',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Look up T-1 and T-2.' },
          {
            role: 'assistant',
            content: 'Looking both up.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'look_up', arguments: '{"ticket":"T-1"}' } },
              {
                id: 'call_b',
                type: 'function',
                function: { name: 'look_up', arguments: '{"ticket":"T-2","deep":{"nested":[1,2]}}' },
              },
            ],
          },
          // Tool results first, right after the turn that asked, then the user's text.
          { role: 'tool', tool_call_id: 'call_a', content: 'T-1 is open' },
          { role: 'tool', tool_call_id: 'call_b', content: '{"error":"no such ticket"}' },
          { role: 'user', content: 'Both came back.' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'look_up',
              description: 'Looks a ticket up.',
              parameters: { type: 'object', properties: { ticket: { type: 'string' } } },
            },
          },
        ],
        max_completion_tokens: 512,
      },
    ]);
  });

  it('sends temperature, top_p and stop only when set, and params.provider verbatim, last', async () => {
    endTurn();
    await provider.respond(requestOf([userText('hi')]));
    endTurn();
    await provider.respond(
      requestOf([userText('hi')], {
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        provider: { openai: { reasoning_effort: 'low', seed: 7, tool_choice: 'required', max_completion_tokens: 64 } },
      }),
    );
    const [plain, tuned] = emulator.received() as JsonObject[];
    expect(Object.keys(plain!).sort()).toEqual(['max_completion_tokens', 'messages', 'model', 'tools']);
    expect(tuned).toMatchObject({
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      reasoning_effort: 'low',
      seed: 7,
      tool_choice: 'required',
      max_completion_tokens: 64,
    });
  });

  it('sends no system message for an empty system prompt, no tools when there are none, several texts as text parts', async () => {
    endTurn();
    await provider.respond({
      ...requestOf(
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'one' },
              { type: 'text', text: 'two' },
            ],
          },
        ],
        {},
        '',
      ),
      tools: [],
    });
    expect(emulator.received()[0]).toEqual({
      model: 'gpt-5.4',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
      ],
      max_completion_tokens: 512,
    });
  });

  it.each([
    ['topK', { topK: 40 }, /topK \(40\).*top-k/],
    ['a thinking budget', { thinking: { budgetTokens: 2048 } }, /reasoning_effort in params\.provider/],
    ['a stream', { provider: { openai: { stream: true } } }, /params\.provider\.openai sets stream/],
    ['the messages', { provider: { openai: { messages: [] } } }, /params\.provider\.openai sets messages/],
  ])('refuses %s with USAGE, before any HTTP request', async (_what, params, message) => {
    const error = await rejection(provider.respond(requestOf([userText('hi')], params)));
    expect(error.code).toBe('USAGE');
    expect(error.message).toMatch(message);
    expect(emulator.received()).toEqual([]);
  });
});

describe('fromOpenAIChat: the response', () => {
  it('parses each tool call arguments string into the input object', async () => {
    answer(
      chatCompletion(
        {
          content: 'Looking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'look_up', arguments: '{"ticket": "T-1"}' } },
            { id: 'call_2', type: 'function', function: { name: 'look_up', arguments: '{}' } },
          ],
        },
        'tool_calls',
      ),
    );
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response).toMatchObject({
      id: 'chatcmpl-wire',
      model: 'gpt-5.4-mini-2026-03-05',
      stopReason: 'tool_use',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'call_1', name: 'look_up', input: { ticket: 'T-1' } },
        { type: 'tool_use', id: 'call_2', name: 'look_up', input: {} },
      ],
    });
  });

  it.each([
    ['not JSON', '{"ticket": "T-1"', /not JSON/],
    ['JSON but not an object', '["T-1"]', /not an object/],
  ])('refuses an arguments string that is %s: PROVIDER_UNMAPPED, the string verbatim', async (_what, text, why) => {
    answer(
      chatCompletion(
        { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look_up', arguments: text } }] },
        'tool_calls',
      ),
    );
    const error = await rejection(provider.respond(requestOf([userText('hi')])));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.message).toMatch(why);
    expect(error.details).toEqual({ field: 'choices[0].message.tool_calls[0].function.arguments', data: text });
  });

  it('keeps a tool call the token limit cut off verbatim, and reads the turn as cut at max_tokens', async () => {
    const cut = { id: 'call_1', type: 'function', function: { name: 'look_up', arguments: '{"ticket": "T-' } };
    answer(chatCompletion({ content: 'Looking.', tool_calls: [cut] }, 'length'));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.stopReason).toBe('max_tokens');
    expect(response.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'provider', provider: 'openai', block: { type: 'truncated_tool_call', call: cut } },
    ]);
  });

  it('reads a refusal as the stop reason refusal, with the refusal text as a text part', async () => {
    answer(chatCompletion({ content: null, refusal: "I can't help with that." }, 'stop'));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.stopReason).toBe('refusal');
    expect(response.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    expect(response.providerStopReason).toBeUndefined();
  });

  it.each([
    ['stop', 'end_turn', undefined],
    ['length', 'max_tokens', undefined],
    ['tool_calls', 'tool_use', undefined],
    ['function_call', 'tool_use', undefined],
    ['content_filter', 'content_filter', undefined],
    ['insufficient_system_resource', 'other', 'insufficient_system_resource'],
  ])('reads finish_reason %s as %s', async (finish, stopReason, providerStopReason) => {
    answer(chatCompletion({ content: 'text' }, finish));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.stopReason).toBe(stopReason);
    expect(response.providerStopReason).toBe(providerStopReason);
  });

  it('takes the cached tokens out of prompt_tokens and counts reasoning within completion_tokens, keeping the raw usage', async () => {
    const usage = {
      prompt_tokens: 1200,
      completion_tokens: 500,
      total_tokens: 1700,
      prompt_tokens_details: { cached_tokens: 1000, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 320, audio_tokens: 0 },
    };
    answer(chatCompletion({ content: 'text' }, 'stop', usage));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.usage).toEqual({
      inputTokens: 200,
      cacheReadTokens: 1000,
      outputTokens: 500,
      reasoningTokens: 320,
      provider: usage,
    });
  });

  it('reports only the counts the provider gave: no details, no cache or reasoning counts', async () => {
    answer(chatCompletion({ content: 'text' }, 'stop', { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 }));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.usage).toEqual({
      inputTokens: 12,
      outputTokens: 3,
      provider: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
  });

  it.each([
    [
      'more cached tokens than prompt tokens',
      { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 11 } },
    ],
    ['no usage', undefined],
    ['a fractional count', { prompt_tokens: 1.5, completion_tokens: 1 }],
  ])('refuses usage with %s: PROVIDER_UNMAPPED', async (_what, usage) => {
    const body = chatCompletion({ content: 'text' }, 'stop');
    answer(usage === undefined ? { ...body, usage: null } : { ...body, usage });
    const error = await rejection(provider.respond(requestOf([userText('hi')])));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.message).toMatch(/usage/);
  });

  it('keeps the web citations of the text as its citations, and an audio answer verbatim, sent back by its id', async () => {
    const citation = {
      type: 'url_citation',
      url_citation: { url: 'https://example.com', title: 'Ex', start_index: 0, end_index: 4 },
    };
    const audio = { id: 'audio_1', data: 'UklGRg==', expires_at: 1_767_229_200, transcript: 'Here.' };
    answer(chatCompletion({ content: 'Here.', annotations: [citation], audio }, 'stop'));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.content).toEqual([
      { type: 'text', text: 'Here.', citations: [citation] },
      { type: 'provider', provider: 'openai', block: { type: 'audio', ...audio } },
    ]);
    endTurn();
    await provider.respond(
      requestOf([userText('hi'), { role: 'assistant', content: response.content }, userText('more')]),
    );
    expect((emulator.received()[1] as { messages: unknown[] }).messages[2]).toEqual({
      role: 'assistant',
      content: 'Here.',
      audio: { id: 'audio_1' },
    });
  });

  it('refuses a custom tool call, and a legacy function_call, which answer tools forkpoint never sends', async () => {
    answer(
      chatCompletion(
        { tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'x', input: 'y' } }] },
        'tool_calls',
      ),
    );
    expect((await rejection(provider.respond(requestOf([userText('hi')])))).code).toBe('PROVIDER_UNMAPPED');
    answer(chatCompletion({ function_call: { name: 'look_up', arguments: '{}' } }, 'function_call'));
    expect((await rejection(provider.respond(requestOf([userText('hi')])))).code).toBe('PROVIDER_UNMAPPED');
  });

  it('refuses a completion with no choices', async () => {
    answer({ ...chatCompletion({ content: 'x' }, 'stop'), choices: [] });
    const error = await rejection(provider.respond(requestOf([userText('hi')])));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toBe('choices[0]');
  });
});

describe('a completion of several choices', () => {
  it('is refused whole or streamed alike: one answer of several would be a choice forkpoint made', () => {
    const choice = { index: 0, message: { role: 'assistant', content: 'a' }, finish_reason: 'stop' };
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [choice, { ...choice, index: 1 }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    expect(() => chatResponseOf(completion)).toThrow(/more than one choice/);
  });
});
