import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonValue } from '../../../src/json/index.js';
import { neutralResponseOfAnthropicSse, parseSseText } from '../../../src/providers/index.js';
import { neutralResponseOf } from '../../../src/providers/anthropic/anthropic-response.js';
import { startAnthropicEmulator } from '../../support/emulators/anthropic-emulator.js';
import { EMULATED_MODEL } from '../../support/emulators/anthropic-subjects.js';
import type { HttpEmulator } from '../../support/emulators/http-emulator.js';
import { thrown } from '../../support/thrown.js';

// The real Anthropic SDK reads the emulator's event stream, as a user's streaming loop does; what it assembles
// must be what forkpoint assembles from the same text, the text a replay would serve.

let emulator: HttpEmulator;
let client: Anthropic;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
  client = new Anthropic({ apiKey: 'test-key', baseURL: emulator.url, maxRetries: 0 });
});
afterAll(async () => {
  await emulator.close();
});

const reply = (content: MessagePart[], stopReason: ModelResponse['stopReason']): ModelResponse => ({
  id: 'msg_sdk_stream',
  model: EMULATED_MODEL,
  content,
  stopReason,
  usage: { inputTokens: 20, outputTokens: 9, cacheReadTokens: 4, cacheWriteTokens: 2 },
});
const toolTurn = reply(
  [
    { type: 'thinking', thinking: 'Two lookups are needed.', signature: 'sig-SDK+/=' },
    { type: 'redacted_thinking', data: 'REDACTED-SDK==' },
    { type: 'text', text: 'Looking both up, one after the other.' },
    { type: 'tool_use', id: 'toolu_sdk_a', name: 'lookup', input: { key: 'a', filters: { since: 2020, tags: ['x'] } } },
    { type: 'tool_use', id: 'toolu_sdk_b', name: 'lookup', input: { key: 'b' } },
  ],
  'tool_use',
);
const citedTurn = reply(
  [
    {
      type: 'text',
      text: 'The sky is blue.',
      citations: [
        { type: 'char_location', cited_text: 'sky', document_index: 0, start_char_index: 4, end_char_index: 7 },
      ],
    },
  ],
  'end_turn',
);
const params = {
  model: EMULATED_MODEL,
  max_tokens: 200,
  messages: [{ role: 'user' as const, content: 'Look up a and b.' }],
};
// The SDK's objects as the JSON they are: what a recording keeps, and what the non-streamed mapping takes.
const json = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;

describe.each([
  ['thinking, text and two tool calls', toolTurn],
  ['a cited text', citedTurn],
])('the Anthropic SDK streaming %s from the emulator', (_name, response) => {
  it("agrees with forkpoint's assembly of the same event stream (messages.stream().finalMessage())", async () => {
    emulator.script([{ kind: 'response', response }]);
    const final = await client.messages.stream(params).finalMessage();
    const sent = emulator.sentStream();
    expect(sent).toBeDefined();
    const assembled = neutralResponseOfAnthropicSse(sent!);
    expect(assembled).toEqual(neutralResponseOf(json(final)));
    expect(assembled.content.map((part) => part.type)).toEqual(response.content.map((part) => part.type));
  });

  it('reads the events forkpoint reads from the text (messages.create({ stream: true }))', async () => {
    emulator.script([{ kind: 'response', response }]);
    const events: JsonValue[] = [];
    for await (const event of await client.messages.create({ ...params, stream: true })) events.push(json(event));
    const read = parseSseText(emulator.sentStream()!).map((event) => JSON.parse(event.data) as JsonValue);
    // The SDK hands over every event but `ping`, which says nothing.
    expect(events).toEqual(read.filter((event) => (event as { type?: unknown }).type !== 'ping'));
    expect(events.length).toBeGreaterThan(6);
  });

  it('matches the non-streamed answer of the same scripted response', async () => {
    emulator.script([{ kind: 'response', response }]);
    const whole = await client.messages.create(params);
    emulator.script([{ kind: 'response', response }]);
    await client.messages.stream(params).finalMessage();
    expect(neutralResponseOfAnthropicSse(emulator.sentStream()!)).toEqual(neutralResponseOf(json(whole)));
    expect(emulator.sentStream()).toBeDefined();
  });
});

describe('a stream that fails, read by the SDK and by forkpoint', () => {
  it('an error event: the SDK throws, and forkpoint says PROVIDER_FAILED', async () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_x","type":"message","role":' +
      '"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,' +
      '"output_tokens":1}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error",' +
      '"message":"Overloaded"}}\n\n';
    emulator.script([{ kind: 'sse', text }]);
    await expect(client.messages.stream(params).finalMessage()).rejects.toThrow(/Overloaded/);
    expect(emulator.sentStream()).toBe(text);
    expect(thrown(() => neutralResponseOfAnthropicSse(text)).code).toBe('PROVIDER_FAILED');
  });

  it('a stream cut before message_stop: the SDK has no message, and forkpoint says PROVIDER_FAILED', async () => {
    emulator.script([{ kind: 'response', response: toolTurn }]);
    await client.messages.stream(params).finalMessage();
    const cut = emulator
      .sentStream()!
      .split(/(?<=\n\n)/)
      .slice(0, -1)
      .join('');
    emulator.script([{ kind: 'sse', text: cut }]);
    await expect(client.messages.stream(params).finalMessage()).rejects.toThrow(
      /stream ended without producing a Message/,
    );
    expect(thrown(() => neutralResponseOfAnthropicSse(cut)).code).toBe('PROVIDER_FAILED');
  });
});
