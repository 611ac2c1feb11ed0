import { describe, expect, it } from 'vitest';
import type { MessagePart, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import { anthropicMessageOfSse, neutralResponseOfAnthropicSse } from '../../../src/providers/anthropic/index.js';
import { neutralResponseOf } from '../../../src/providers/anthropic/anthropic-response.js';
import { anthropicMessageOf } from '../../support/emulators/anthropic-emulator.js';
import { anthropicEventsOf, anthropicSseOf } from '../../support/emulators/anthropic-stream-wire.js';
import { sseEventText } from '../../support/emulators/sse-writing.js';
import { thrown } from '../../support/thrown.js';

const reply = (content: MessagePart[], more: Partial<ModelResponse> = {}): ModelResponse => ({
  id: 'msg_stream',
  model: 'emulated-claude',
  content,
  stopReason: 'end_turn',
  usage: { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, reasoningTokens: 9 },
  ...more,
});
const citation = {
  type: 'char_location',
  cited_text: 'sky',
  document_index: 0,
  start_char_index: 0,
  end_char_index: 3,
};

const scripted: [string, ModelResponse][] = [
  ['a text in pieces', reply([{ type: 'text', text: 'The sky is blue because of Rayleigh scattering.' }])],
  ['a text with citations', reply([{ type: 'text', text: 'The sky is blue.', citations: [citation, citation] }])],
  [
    'thinking, redacted thinking, text and two tool calls',
    reply(
      [
        { type: 'thinking', thinking: 'Both keys are needed: a, then b.', signature: 'sig-+/=' },
        { type: 'redacted_thinking', data: 'REDACTED==' },
        { type: 'text', text: 'Looking both up.' },
        { type: 'tool_use', id: 'toolu_a', name: 'lookup', input: { key: 'a', nested: { list: [1, 'é', null] } } },
        { type: 'tool_use', id: 'toolu_b', name: 'lookup', input: {} },
      ],
      { stopReason: 'tool_use' },
    ),
  ],
  [
    "a server tool's call and result, kept as provider parts",
    reply([
      {
        type: 'provider',
        provider: 'anthropic',
        block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'sky' } },
      },
      {
        type: 'provider',
        provider: 'anthropic',
        block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      },
      { type: 'text', text: 'Found it.' },
    ]),
  ],
  ['an empty text, cut at max_tokens', reply([{ type: 'text', text: '' }], { stopReason: 'max_tokens' })],
  ['a stop reason the neutral shape has no name for', reply([], { stopReason: 'other', providerStopReason: 'new' })],
];

describe('anthropicMessageOfSse', () => {
  it.each(scripted)('assembles %s into the Message the API answers without streaming', (_name, response) => {
    const message = anthropicMessageOf(response);
    expect(anthropicMessageOfSse(anthropicSseOf(message))).toEqual(message);
  });

  it.each(scripted)('maps %s to the neutral response of the non-streamed Message', (_name, response) => {
    const message = anthropicMessageOf(response);
    expect(neutralResponseOfAnthropicSse(anthropicSseOf(message))).toEqual(neutralResponseOf(message));
  });

  it("takes message_delta's usage totals over message_start's, keeping a count it leaves out or writes as null", () => {
    const events = [
      start({ input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 6, cache_creation_input_tokens: 2 }),
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: usageDelta },
      { type: 'message_stop' },
    ];
    expect(anthropicMessageOfSse(sse(events)).usage).toEqual({
      input_tokens: 11,
      output_tokens: 40,
      cache_read_input_tokens: 6,
      cache_creation_input_tokens: 2,
      server_tool_use: { web_search_requests: 1 },
    });
  });

  it('sets the stop sequence, and the delta fields it has a value for, from message_delta', () => {
    const events = [
      start({ input_tokens: 1, output_tokens: 1 }),
      {
        type: 'message_delta',
        delta: { stop_reason: 'stop_sequence', stop_sequence: '###', container: { id: 'ctr_1', expires_at: 'x' } },
        usage: { output_tokens: 2 },
      },
      { type: 'message_stop' },
    ];
    const message = anthropicMessageOfSse(sse(events));
    expect(message).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '###', container: { id: 'ctr_1' } });
    expect(neutralResponseOf(message).stopReason).toBe('stop_sequence');
  });

  it('reads the empty tool input as {}, and keeps the input a tool_use started with when no delta follows', () => {
    const events = [
      start({ input_tokens: 1, output_tokens: 1 }),
      blockStart(0, { type: 'tool_use', id: 't0', name: 'a', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '' }),
      { type: 'content_block_stop', index: 0 },
      blockStart(1, { type: 'tool_use', id: 't1', name: 'b', input: { given: true } }),
      { type: 'content_block_stop', index: 1 },
      ...end('tool_use'),
    ];
    const { content } = anthropicMessageOfSse(sse(events));
    expect(content).toEqual([
      { type: 'tool_use', id: 't0', name: 'a', input: {} },
      { type: 'tool_use', id: 't1', name: 'b', input: { given: true } },
    ]);
  });

  it('passes over pings wherever they come, and reads events whose SSE name is left out', () => {
    const events = anthropicEventsOf(anthropicMessageOf(scripted[0]![1]));
    const text = events.flatMap((event) => [sseEventText({ type: 'ping' }), sseEventText(event)]).join('');
    expect(anthropicMessageOfSse(text)).toEqual(anthropicMessageOf(scripted[0]![1]));
  });
});

describe('anthropicMessageOfSse: what it refuses', () => {
  const whole = anthropicEventsOf(anthropicMessageOf(scripted[2]![1]));

  it('an error event mid-stream is PROVIDER_FAILED, with the error type and message', () => {
    const error = thrown(() =>
      anthropicMessageOfSse(
        sse([...whole.slice(0, 4), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]),
      ),
    );
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('overloaded_error');
    expect(error.message).toContain('Overloaded');
  });

  it.each([
    ['cut before message_stop', whole.slice(0, -1)],
    ['cut inside a block', whole.slice(0, 5)],
    ['empty', []],
  ])('a stream %s is PROVIDER_FAILED: the message is not whole', (_name, events) => {
    const error = thrown(() => anthropicMessageOfSse(sse(events)));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toContain('before message_stop');
  });

  it('a stream cut inside its last event, with no blank line after message_stop, is PROVIDER_FAILED', () => {
    const text = sse(whole).replace(/\n\n$/, '');
    expect(thrown(() => anthropicMessageOfSse(text)).code).toBe('PROVIDER_FAILED');
  });

  it.each<[string, JsonObject[]]>([
    ['an unknown event type', [start({ input_tokens: 1, output_tokens: 1 }), { type: 'message_surprise' }]],
    [
      'an unknown delta type',
      [
        start({ input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: 'text', text: '' }),
        delta(0, { type: 'sparkle_delta', sparkle: '*' }),
      ],
    ],
    [
      'a delta that does not fit its block',
      [
        start({ input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} }),
        delta(0, { type: 'text_delta', text: 'x' }),
      ],
    ],
    [
      'a delta for a block never started',
      [start({ input_tokens: 1, output_tokens: 1 }), delta(0, { type: 'text_delta', text: 'x' })],
    ],
    [
      'a delta for a block already stopped',
      [
        start({ input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: 'text', text: '' }),
        { type: 'content_block_stop', index: 0 },
        delta(0, { type: 'text_delta', text: 'x' }),
      ],
    ],
    ['a block out of order', [start({ input_tokens: 1, output_tokens: 1 }), blockStart(1, { type: 'text', text: '' })]],
    [
      'tool input that is no JSON',
      [
        start({ input_tokens: 1, output_tokens: 1 }),
        blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} }),
        delta(0, { type: 'input_json_delta', partial_json: '{"a":' }),
        { type: 'content_block_stop', index: 0 },
      ],
    ],
    ['an event before message_start', [blockStart(0, { type: 'text', text: '' })]],
    ['a second message_start', [start({ input_tokens: 1, output_tokens: 1 }), start({ input_tokens: 1 })]],
    ['an event after message_stop', [...whole, { type: 'message_delta', delta: {}, usage: { output_tokens: 1 } }]],
    [
      'message_stop with a block still open',
      [start({ input_tokens: 1, output_tokens: 1 }), blockStart(0, { type: 'text', text: '' }), ...end('end_turn')],
    ],
  ])('%s is PROVIDER_UNMAPPED, naming the event', (_name, events) => {
    const error = thrown(() => anthropicMessageOfSse(sse(events)));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toMatch(/^event \d+ of the stream/);
  });

  it('an event whose SSE name is not its type is PROVIDER_UNMAPPED', () => {
    const text = sseEventText(start({ input_tokens: 1 }), 'message_stop');
    expect(thrown(() => anthropicMessageOfSse(text)).code).toBe('PROVIDER_UNMAPPED');
  });

  it('data that is not JSON is PROVIDER_UNMAPPED, naming the event', () => {
    const error = thrown(() => anthropicMessageOfSse(`${sseEventText(start({}))}data: {oops\n\n`));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toBe('event 1 of the stream');
  });
});

const usageDelta = {
  input_tokens: 11,
  output_tokens: 40,
  cache_read_input_tokens: null,
  server_tool_use: { web_search_requests: 1 },
};

function start(usage: JsonObject): JsonObject {
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [] };
  return { type: 'message_start', message: { ...message, stop_reason: null, stop_sequence: null, usage } };
}
const blockStart = (index: number, block: JsonObject): JsonObject => ({
  type: 'content_block_start',
  index,
  content_block: block,
});
const delta = (index: number, fields: JsonObject): JsonObject => ({
  type: 'content_block_delta',
  index,
  delta: fields,
});
const end = (stopReason: string): JsonObject[] => [
  { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
];
const sse = (events: readonly JsonObject[]): string =>
  events.map((event) => sseEventText(event, typeof event.type === 'string' ? event.type : undefined)).join('');
