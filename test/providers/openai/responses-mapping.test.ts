import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import type { ModelProvider } from '../../../src/world/index.js';
import { fromOpenAIResponses } from '../../../src/providers/index.js';
import { openAIClientFor, startOpenAIEmulator, type OpenAIEmulator } from '../../support/emulators/openai-emulator.js';
import { rejection, requestOf, responseObject, userText } from './openai-fixtures.js';

let emulator: OpenAIEmulator;
let provider: ModelProvider;
beforeEach(async () => {
  emulator = await startOpenAIEmulator('responses');
  provider = fromOpenAIResponses(openAIClientFor(emulator.url, 0));
});
afterEach(async () => {
  await emulator.close();
});

const answer = (...bodies: JsonObject[]): void => {
  emulator.script(bodies.map((body) => ({ kind: 'wire', body })));
};
const endTurn = (): JsonObject =>
  responseObject([
    {
      id: 'msg_end',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'done', annotations: [] }],
    },
  ]);
const inputOf = (index: number): JsonObject[] => (emulator.received()[index] as { input: JsonObject[] }).input;

// What a reasoning model answers: reasoning, a commentary message, two function calls, each item with its own id.
const REASONING = {
  id: 'rs_1',
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: 'Two tickets to look up.' }],
  encrypted_content: 'gAAAAB-opaque-1',
};
const COMMENTARY = {
  id: 'msg_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  phase: 'commentary',
  content: [{ type: 'output_text', text: 'Looking both up.', annotations: [] }],
};
const callItem = (n: number, ticket: string): JsonObject => ({
  id: `fc_${n}`,
  type: 'function_call',
  status: 'completed',
  arguments: JSON.stringify({ ticket }),
  call_id: `call_${n}`,
  name: 'look_up',
});
const WEB_SEARCH = {
  id: 'ws_1',
  type: 'web_search_call',
  status: 'completed',
  action: { type: 'search', query: 'T-1' },
};

/** Asks once with `items` as the answer, then sends that turn back with the results: the second request's input. */
async function roundTrip(items: readonly JsonObject[]): Promise<{ response: ModelResponse; input: JsonObject[] }> {
  answer(responseObject(items, { status: 'completed' }), endTurn());
  const first = [userText('Look up T-1 and T-2.')];
  const response = await provider.respond(requestOf(first));
  const results: Message = {
    role: 'user',
    content: response.content.flatMap((part) =>
      part.type === 'tool_use'
        ? [{ type: 'tool_result', toolUseId: part.id, content: { open: true }, isError: false }]
        : [],
    ),
  };
  await provider.respond(requestOf([...first, { role: 'assistant', content: response.content }, results]));
  return { response, input: inputOf(1) };
}

describe('fromOpenAIResponses: the request', () => {
  it('is stateless: store false, encrypted reasoning asked for, instructions, the whole input, no previous_response_id', async () => {
    const { input } = await roundTrip([callItem(1, 'T-1')]);
    const [first, second] = emulator.received() as JsonObject[];
    expect(first).toEqual({
      model: 'gpt-5.4',
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look up T-1 and T-2.' }] }],
      tools: [
        {
          type: 'function',
          name: 'look_up',
          description: 'Looks a ticket up.',
          parameters: { type: 'object', properties: { ticket: { type: 'string' } } },
          strict: false,
        },
      ],
      max_output_tokens: 512,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(second).not.toHaveProperty('previous_response_id');
    expect(second).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    expect(input).toEqual([
      ...(first!.input as JsonObject[]),
      callItem(1, 'T-1'),
      { type: 'function_call_output', call_id: 'call_1', output: '{"open":true}' },
    ]);
  });

  it('sends temperature and top_p only when set, params.provider verbatim, its include joined with the encrypted reasoning', async () => {
    answer(endTurn());
    await provider.respond(
      requestOf([userText('hi')], {
        temperature: 0.3,
        topP: 0.8,
        provider: {
          openai: { reasoning: { effort: 'high', summary: 'auto' }, include: ['web_search_call.action.sources'] },
        },
      }),
    );
    expect(emulator.received()[0]).toMatchObject({
      temperature: 0.3,
      top_p: 0.8,
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['web_search_call.action.sources', 'reasoning.encrypted_content'],
      store: false,
    });
  });

  it.each([
    ['topK', { topK: 40 }, /top-k/],
    ['a thinking budget', { thinking: { budgetTokens: 2048 } }, /reasoning: \{ effort \}/],
    ['stop sequences', { stopSequences: ['END'] }, /no stop sequences/],
    ['store', { provider: { openai: { store: true } } }, /params\.provider\.openai sets store.*stateless/],
    ['previous_response_id', { provider: { openai: { previous_response_id: 'resp_1' } } }, /sets previous_response_id/],
    ['a conversation', { provider: { openai: { conversation: 'conv_1' } } }, /sets conversation/],
    [
      'an include that is not a list',
      { provider: { openai: { include: 'reasoning.encrypted_content' } } },
      /include must be/,
    ],
  ])('refuses %s with USAGE, before any HTTP request', async (_what, params, message) => {
    const error = await rejection(provider.respond(requestOf([userText('hi')], params)));
    expect(error.code).toBe('USAGE');
    expect(error.message).toMatch(message);
    expect(emulator.received()).toEqual([]);
  });

  it("leaves out thinking, redacted thinking and another provider's parts (a run forked from Anthropic)", async () => {
    answer(endTurn());
    await provider.respond(
      requestOf([
        userText('hi'),
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Hmm.', signature: 'sig-anthropic' },
            { type: 'redacted_thinking', data: 'redacted-anthropic' },
            { type: 'provider', provider: 'anthropic', block: { type: 'server_tool_use', id: 'srvtoolu_1' } },
            { type: 'text', text: 'Hello.' },
          ],
        },
        userText('again'),
      ]),
    );
    expect(inputOf(0)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.', annotations: [] }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'again' }] },
    ]);
  });
});

describe('fromOpenAIResponses: the response, and what goes back', () => {
  it('maps reasoning, a message and parallel function calls, and sends every item back as it came', async () => {
    const items = [REASONING, COMMENTARY, callItem(1, 'T-1'), callItem(2, 'T-2')];
    const { response, input } = await roundTrip(items);
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toEqual([
      { type: 'provider', provider: 'openai', block: REASONING },
      {
        type: 'provider',
        provider: 'openai',
        block: { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', phase: 'commentary' },
      },
      { type: 'text', text: 'Looking both up.' },
      { type: 'provider', provider: 'openai', block: { id: 'fc_1', type: 'function_call', status: 'completed' } },
      { type: 'tool_use', id: 'call_1', name: 'look_up', input: { ticket: 'T-1' } },
      { type: 'provider', provider: 'openai', block: { id: 'fc_2', type: 'function_call', status: 'completed' } },
      { type: 'tool_use', id: 'call_2', name: 'look_up', input: { ticket: 'T-2' } },
    ]);
    // The reasoning item verbatim (its encrypted content included), each item's own id, status and phase.
    expect(input.slice(1)).toEqual([
      ...items,
      { type: 'function_call_output', call_id: 'call_1', output: '{"open":true}' },
      { type: 'function_call_output', call_id: 'call_2', output: '{"open":true}' },
    ]);
  });

  it('keeps an item of a kind it does not know verbatim, and sends it back so', async () => {
    const { response, input } = await roundTrip([WEB_SEARCH, COMMENTARY]);
    expect(response.content[0]).toEqual({ type: 'provider', provider: 'openai', block: WEB_SEARCH });
    expect(response.stopReason).toBe('end_turn');
    expect(input.slice(1)).toEqual([WEB_SEARCH, COMMENTARY]);
  });

  it('keeps the citations of a text, and sends them back as its annotations', async () => {
    const citation = { type: 'url_citation', url: 'https://example.com', title: 'Ex', start_index: 0, end_index: 4 };
    const message = { ...COMMENTARY, content: [{ type: 'output_text', text: 'Here.', annotations: [citation] }] };
    const { response, input } = await roundTrip([message]);
    expect(response.content[1]).toEqual({ type: 'text', text: 'Here.', citations: [citation] });
    expect(input[1]).toEqual(message);
  });

  it('refuses a function call whose arguments are not a JSON object: PROVIDER_UNMAPPED, the string verbatim', async () => {
    answer(responseObject([{ ...callItem(1, 'T-1'), arguments: '{"ticket":' }]));
    const error = await rejection(provider.respond(requestOf([userText('hi')])));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details).toEqual({ field: 'output[0].arguments', data: '{"ticket":' });
  });

  it('reads a refusal part as the stop reason refusal, with its text', async () => {
    answer(responseObject([{ ...COMMENTARY, content: [{ type: 'refusal', refusal: 'I cannot help.' }] }]));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.stopReason).toBe('refusal');
    expect(response.content.filter((part) => part.type === 'text')).toEqual([{ type: 'text', text: 'I cannot help.' }]);
  });

  it.each([
    [{ status: 'completed' }, 'end_turn', undefined],
    [{ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, 'max_tokens', undefined],
    [{ status: 'incomplete', incomplete_details: { reason: 'content_filter' } }, 'content_filter', undefined],
    [{ status: 'incomplete', incomplete_details: { reason: 'server_overloaded' } }, 'other', 'server_overloaded'],
  ])('reads %o as %s', async (fields, stopReason, providerStopReason) => {
    answer(responseObject([COMMENTARY], fields));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.stopReason).toBe(stopReason);
    expect(response.providerStopReason).toBe(providerStopReason);
  });

  it('reads a failed response as PROVIDER_FAILED with its error, and a background status as unmapped', async () => {
    answer(responseObject([], { status: 'failed', error: { code: 'server_error', message: 'The model broke.' } }));
    const failed = await rejection(provider.respond(requestOf([userText('hi')])));
    expect(failed.code).toBe('PROVIDER_FAILED');
    expect(failed.message).toMatch(/server_error.*The model broke/);
    answer(responseObject([], { status: 'queued' }));
    expect((await rejection(provider.respond(requestOf([userText('hi')])))).code).toBe('PROVIDER_UNMAPPED');
  });

  it('takes the cached tokens out of input_tokens and counts reasoning within output_tokens, keeping the raw usage', async () => {
    const usage = {
      input_tokens: 2000,
      input_tokens_details: { cached_tokens: 1500 },
      output_tokens: 800,
      output_tokens_details: { reasoning_tokens: 600 },
      total_tokens: 2800,
    };
    answer(responseObject([COMMENTARY], { usage }));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.usage).toEqual({
      inputTokens: 500,
      cacheReadTokens: 1500,
      outputTokens: 800,
      reasoningTokens: 600,
      provider: usage,
    });
  });

  it('takes tokens written to the cache out of input_tokens too, as cacheWriteTokens', async () => {
    const usage = {
      input_tokens: 2000,
      input_tokens_details: { cached_tokens: 500, cache_write_tokens: 1200 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 2010,
    };
    answer(responseObject([COMMENTARY], { usage }));
    const response = await provider.respond(requestOf([userText('hi')]));
    expect(response.usage).toMatchObject({ inputTokens: 300, cacheReadTokens: 500, cacheWriteTokens: 1200 });
  });
});
