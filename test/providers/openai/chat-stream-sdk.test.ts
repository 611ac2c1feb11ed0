import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonValue } from '../../../src/json/index.js';
import { chatResponseOfSse, parseSseText } from '../../../src/providers/index.js';
import { chatResponseOf } from '../../../src/providers/openai/chat-response.js';
import { openAIClientFor, startOpenAIEmulator, type OpenAIEmulator } from '../../support/emulators/openai-emulator.js';
import { thrown } from '../../support/thrown.js';

// The real OpenAI SDK reads the emulator's chunks, as a user's streaming loop does; what it accumulates must be
// what forkpoint assembles from the same text, the text a replay would serve.

let emulator: OpenAIEmulator;
let client: OpenAI;
beforeAll(async () => {
  emulator = await startOpenAIEmulator('chat');
  client = openAIClientFor(emulator.url, 0);
});
afterAll(async () => {
  await emulator.close();
});

const reply = (content: MessagePart[], stopReason: ModelResponse['stopReason']): ModelResponse => ({
  id: 'ignored',
  model: 'gpt-5.4-mini',
  content,
  stopReason,
  usage: { inputTokens: 40, outputTokens: 15, cacheReadTokens: 16, reasoningTokens: 6 },
});
const toolTurn = reply(
  [
    { type: 'text', text: 'Looking both tickets up now.' },
    { type: 'tool_use', id: 'call_sdk_a', name: 'look_up', input: { ticket: 'T-1', deep: { list: [1, 2] } } },
    { type: 'tool_use', id: 'call_sdk_b', name: 'look_up', input: { ticket: 'T-2' } },
  ],
  'tool_use',
);
const textTurn = reply([{ type: 'text', text: 'T-1 is open; T-2 was closed in May, by the same agent.' }], 'end_turn');
const params = {
  model: 'gpt-5.4-mini',
  messages: [{ role: 'user' as const, content: 'Look up T-1 and T-2.' }],
  stream: true as const,
  stream_options: { include_usage: true },
};
const json = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;

describe.each([
  ['a text and two tool calls', toolTurn],
  ['a text', textTurn],
])('the OpenAI SDK streaming %s from the emulator', (_name, response) => {
  it('accumulates the text, tool calls and usage forkpoint assembles (chat.completions.create({ stream: true }))', async () => {
    emulator.script([{ kind: 'response', response }]);
    let text = '';
    const calls: { id: string; name: string; arguments: string }[] = [];
    let usage: unknown;
    for await (const chunk of await client.chat.completions.create(params)) {
      if (chunk.usage) usage = chunk.usage;
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? '';
      for (const call of delta?.tool_calls ?? []) {
        const sofar = (calls[call.index] ??= { id: '', name: '', arguments: '' });
        sofar.id ||= call.id ?? '';
        sofar.name ||= call.function?.name ?? '';
        sofar.arguments += call.function?.arguments ?? '';
      }
    }
    const assembled = chatResponseOfSse(emulator.sentStream()!);
    const parts = assembled.content;
    expect(parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([text]);
    expect(parts.filter((part) => part.type === 'tool_use')).toEqual(
      calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: JSON.parse(call.arguments) })),
    );
    expect(assembled.usage.provider).toEqual(json(usage));
    expect(parts).toEqual(response.content);
  });

  it("agrees with the SDK's own assembly (chat.completions.stream().finalChatCompletion())", async () => {
    emulator.script([{ kind: 'response', response }]);
    const final = await client.chat.completions.stream(params).finalChatCompletion();
    expect(chatResponseOfSse(emulator.sentStream()!)).toEqual(chatResponseOf(json(final)));
  });

  it('reads the chunks forkpoint reads from the text', async () => {
    emulator.script([{ kind: 'response', response }]);
    const chunks: JsonValue[] = [];
    for await (const chunk of await client.chat.completions.create(params)) chunks.push(json(chunk));
    const events = parseSseText(emulator.sentStream()!);
    expect(events.at(-1)).toEqual({ data: '[DONE]' });
    expect(chunks).toEqual(events.slice(0, -1).map((event) => JSON.parse(event.data) as JsonValue));
  });

  it('matches the non-streamed answer of the same scripted response, but for the id the server mints', async () => {
    emulator.script([{ kind: 'response', response }]);
    const { stream: _stream, stream_options: _options, ...whole } = params;
    const completion = await client.chat.completions.create(whole);
    emulator.script([{ kind: 'response', response }]);
    await client.chat.completions.stream(params).finalChatCompletion();
    const streamed = chatResponseOfSse(emulator.sentStream()!);
    expect({ ...streamed, id: '' }).toEqual({ ...chatResponseOf(json(completion)), id: '' });
    expect(streamed.id).toMatch(/^chatcmpl-/);
  });
});

describe('a stream without the usage chunk, or cut short', () => {
  it('the SDK reads a stream the request asked no usage of, and forkpoint says how to get the counts', async () => {
    emulator.script([{ kind: 'response', response: textTurn }]);
    const { stream_options: _options, ...noUsage } = params;
    for await (const chunk of await client.chat.completions.create(noUsage)) expect(chunk.usage).toBeUndefined();
    const error = thrown(() => chatResponseOfSse(emulator.sentStream()!));
    expect([error.code, error.message]).toEqual(['PROVIDER_UNMAPPED', expect.stringContaining('include_usage')]);
  });

  it('a stream cut before [DONE]: forkpoint says PROVIDER_FAILED', async () => {
    emulator.script([{ kind: 'response', response: toolTurn }]);
    await client.chat.completions.stream(params).finalChatCompletion();
    const cut = emulator.sentStream()!.replace(/data: \[DONE\]\n\n$/, '');
    emulator.script([{ kind: 'sse', text: cut }]);
    // The SDK takes a stream with no [DONE] as ended: only forkpoint, which records it, refuses it.
    await client.chat.completions.stream(params).finalChatCompletion();
    expect(thrown(() => chatResponseOfSse(cut)).code).toBe('PROVIDER_FAILED');
  });

  it('an error chunk: the SDK throws, and forkpoint says PROVIDER_FAILED', async () => {
    const text = 'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n';
    emulator.script([{ kind: 'sse', text }]);
    await expect(client.chat.completions.stream(params).finalChatCompletion()).rejects.toThrow(/server had an error/);
    expect(thrown(() => chatResponseOfSse(text)).code).toBe('PROVIDER_FAILED');
  });
});
