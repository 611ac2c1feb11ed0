import { describe, expect, it } from 'vitest';
import type { MessagePart, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import { chatCompletionOfSse, chatResponseOfSse } from '../../../src/providers/openai/index.js';
import { chatResponseOf } from '../../../src/providers/openai/chat-response.js';
import { chatChunksOf, chatSseOf } from '../../support/emulators/openai-stream-wire.js';
import { chatCompletionOf, type MintId } from '../../support/emulators/openai-wire.js';
import { sseEventText } from '../../support/emulators/sse-writing.js';
import { thrown } from '../../support/thrown.js';
import { chatCompletion } from './openai-fixtures.js';

const mint: MintId = (prefix) => `${prefix}stream`;
const reply = (content: MessagePart[], more: Partial<ModelResponse> = {}): ModelResponse => ({
  id: 'ignored',
  model: 'gpt-5.4-mini',
  content,
  stopReason: 'end_turn',
  usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 8, reasoningTokens: 5 },
  ...more,
});
const scripted: [string, ModelResponse][] = [
  ['a text in pieces', reply([{ type: 'text', text: 'Ticket T-1 is open, and T-2 is closed since May.' }])],
  [
    'a text and two tool calls',
    reply(
      [
        { type: 'text', text: 'Looking both up.' },
        { type: 'tool_use', id: 'call_a', name: 'look_up', input: { ticket: 'T-1', deep: { list: [1, 'é', null] } } },
        { type: 'tool_use', id: 'call_b', name: 'look_up', input: {} },
      ],
      { stopReason: 'tool_use' },
    ),
  ],
  ['a tool call alone', reply([{ type: 'tool_use', id: 'c', name: 'n', input: { a: 1 } }], { stopReason: 'tool_use' })],
  ['a refusal', reply([{ type: 'text', text: 'I cannot help with that request.' }], { stopReason: 'refusal' })],
  ['a text cut at the token limit', reply([{ type: 'text', text: 'It was a dark and' }], { stopReason: 'max_tokens' })],
];
const sse = (events: readonly (JsonObject | string)[]): string => events.map((event) => sseEventText(event)).join('');
const { choices: _choices, ...base } = chatCompletion({}, 'stop');
const chunk = (delta: JsonObject, finish: string | null = null, index = 0): JsonObject => ({
  ...base,
  object: 'chat.completion.chunk',
  choices: [{ index, delta, logprobs: null, finish_reason: finish }],
});

describe('chatCompletionOfSse', () => {
  it.each(scripted)('assembles %s into the completion the API answers without streaming', (_name, response) => {
    const completion = chatCompletionOf(response, mint);
    const [choice] = completion.choices as [JsonObject];
    // The stream has no annotations to send: the non-streamed message says `annotations: []`, which maps to none.
    const { annotations: _annotations, ...message } = choice.message as JsonObject;
    expect(chatCompletionOfSse(chatSseOf(completion, true))).toEqual({
      ...completion,
      choices: [{ ...choice, message }],
    });
  });

  it.each(scripted)('maps %s to the neutral response of the non-streamed completion', (_name, response) => {
    const completion = chatCompletionOf(response, mint);
    expect(chatResponseOfSse(chatSseOf(completion, true))).toEqual(chatResponseOf(completion));
  });

  it('keeps the cut arguments of a tool call the token limit stopped as the non-streamed mapping does', () => {
    const call = { id: 'call_cut', type: 'function', function: { name: 'look_up', arguments: '{"ticket": "T-' } };
    const completion = chatCompletion({ tool_calls: [call] }, 'length');
    const mapped = chatResponseOfSse(chatSseOf(completion, true));
    expect(mapped).toEqual(chatResponseOf(completion));
    expect(mapped.content[0]).toMatchObject({ type: 'provider', block: { type: 'truncated_tool_call' } });
  });

  it('merges tool call deltas by index, even interleaved, the arguments in order', () => {
    const text = sse([
      chunk({ role: 'assistant', content: null }),
      chunk({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'a', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'c1', type: 'function', function: { name: 'b', arguments: '{"y"' } }] }),
      chunk({
        tool_calls: [
          { index: 0, function: { arguments: '{"x":' } },
          { index: 1, function: { arguments: ':2}' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, id: 'c0', function: { arguments: '1}' } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    const message = (chatCompletionOfSse(text).choices as [JsonObject])[0].message;
    expect(message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'c0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
        { id: 'c1', type: 'function', function: { name: 'b', arguments: '{"y":2}' } },
      ],
    });
  });

  it('appends the log probabilities of each chunk', () => {
    const token = (t: string): JsonObject => ({ token: t, logprob: -0.1, bytes: null, top_logprobs: [] });
    const withLogprobs = (content: string, t: string): JsonObject => ({
      ...chunk({ content }),
      choices: [
        { index: 0, delta: { content }, logprobs: { content: [token(t)], refusal: null }, finish_reason: null },
      ],
    });
    const text = sse([withLogprobs('He', 'He'), withLogprobs('llo', 'llo'), chunk({}, 'stop'), '[DONE]']);
    const [choice] = chatCompletionOfSse(text).choices as [JsonObject];
    expect(choice.logprobs).toEqual({ content: [token('He'), token('llo')], refusal: null });
  });

  it('leaves usage out when the stream has no usage chunk, and the neutral mapping says to ask for one', () => {
    const text = chatSseOf(chatCompletionOf(scripted[0]![1], mint), false);
    expect(chatCompletionOfSse(text).usage).toBeUndefined();
    const error = thrown(() => chatResponseOfSse(text));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.message).toContain('include_usage');
  });
});

describe('chatCompletionOfSse: what it refuses', () => {
  const whole = chatChunksOf(chatCompletionOf(scripted[1]![1], mint), true);

  it('an error chunk mid-stream is PROVIDER_FAILED, with its message', () => {
    const failed = sse([...whole.slice(0, 3), { error: { message: 'The server had an error', type: 'server_error' } }]);
    const error = thrown(() => chatCompletionOfSse(failed));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('The server had an error');
  });

  it.each([
    ['cut before [DONE]', sse(whole)],
    ['cut inside its [DONE] event', `${sse(whole)}data: [DONE]`],
    ['empty', ''],
  ])('a stream %s is PROVIDER_FAILED: the completion is not whole', (_name, text) => {
    const error = thrown(() => chatCompletionOfSse(text));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('before [DONE]');
  });

  it.each<[string, (JsonObject | string)[], string]>([
    [
      'a second choice (n > 1)',
      [chunk({ content: 'a' }), chunk({ content: 'b' }, null, 1), '[DONE]'],
      '.choices[0].index',
    ],
    [
      'a delta field it does not assemble',
      [chunk({ audio: { id: 'audio_1', data: 'AAA' } }), '[DONE]'],
      '.delta.audio',
    ],
    [
      'a tool call given a second id',
      [
        chunk({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'a', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'c9', function: { arguments: '{}' } }] }),
        '[DONE]',
      ],
      '.id',
    ],
    [
      'a tool call index that skips one',
      [chunk({ tool_calls: [{ index: 1, id: 'c1', type: 'function', function: { name: 'a' } }] }), '[DONE]'],
      '.index',
    ],
    ['an event after [DONE]', [chunk({ content: 'a' }), '[DONE]', chunk({ content: 'b' })], ''],
    ['content that is not text', [chunk({ content: 7 }), '[DONE]'], '.delta.content'],
  ])('%s is PROVIDER_UNMAPPED, naming the field', (_name, events, suffix) => {
    const error = thrown(() => chatCompletionOfSse(sse(events)));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toMatch(/^event \d+ of the stream/);
    expect(error.details.field?.endsWith(suffix)).toBe(true);
  });
});
