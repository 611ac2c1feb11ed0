import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../../../src/conversation/index.js';
import { RequestHasher } from '../../../src/cassette/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import { fromOpenAIChat } from '../../../src/providers/index.js';
import { chatCanonicalOf } from '../../../src/providers/openai/chat-canonical.js';
import { chatResponseOf } from '../../../src/providers/openai/chat-response.js';
import { openAIClientFor, startOpenAIEmulator, type OpenAIEmulator } from '../../support/emulators/openai-emulator.js';
import { chatCompletion, requestOf, userText } from './openai-fixtures.js';

let emulator: OpenAIEmulator;
beforeEach(async () => {
  emulator = await startOpenAIEmulator('chat');
});
afterEach(async () => {
  await emulator.close();
});

const hashOf = (request: ModelRequest): string => new RequestHasher().hashModelRequest(request).requestHash;
const lastBody = (): JsonObject => emulator.received().at(-1) as JsonObject;
const done = chatCompletion({ content: 'done' }, 'stop');

// A driven run's third call: a turn that asked for two tools, their results (one JSON, one text), the user's next line.
const driven: readonly Message[] = [
  userText('Look up T-1 and T-2.'),
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Looking both up.' },
      { type: 'tool_use', id: 'call_a', name: 'look_up', input: { ticket: 'T-1' } },
      { type: 'tool_use', id: 'call_b', name: 'look_up', input: { ticket: 'T-2', deep: { nested: [1, 2] } } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: 'call_a', content: { status: 'open', owner: null }, isError: false },
      { type: 'tool_result', toolUseId: 'call_b', content: 'no such ticket', isError: false },
    ],
  },
  userText('Thanks. Which is older?'),
];

describe('chatCanonicalOf on the bodies the real SDK sends', () => {
  it('maps what fromOpenAIChat sent through the SDK back to the request the driven run started from', async () => {
    const request = requestOf(driven, {
      temperature: 0.4,
      topP: 0.8,
      stopSequences: ['END'],
      provider: { openai: { seed: 7, tool_choice: 'auto', reasoning_effort: 'low' } },
    });
    emulator.script([{ kind: 'wire', body: done }]);
    await fromOpenAIChat(openAIClientFor(emulator.url, 0)).respond(request);
    const back = chatCanonicalOf(lastBody());
    expect(back.request).toEqual(request);
    expect(hashOf(back.request)).toBe(hashOf(request));
  });

  it("keys a hand-written loop's calls as a driven run over the same conversation keys them", async () => {
    const client = openAIClientFor(emulator.url, 0);
    const asked = chatCompletion(
      {
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'look_up', arguments: '{"ticket":"T-1"}' } }],
      },
      'tool_calls',
    );
    emulator.script([
      { kind: 'wire', body: asked },
      { kind: 'wire', body: done },
    ]);
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'look_up',
          description: 'Looks a ticket up.',
          parameters: { type: 'object', properties: { ticket: { type: 'string' } } },
        },
      },
    ];
    // The loop a user writes: push the SDK's message back as it came, answer each tool call with a tool message.
    const messages: Parameters<typeof client.chat.completions.create>[0]['messages'] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Look up T-1.' },
    ];
    const first = await client.chat.completions.create({
      model: 'gpt-5.4',
      messages,
      tools,
      max_completion_tokens: 512,
    });
    const firstBody = lastBody();
    const message = first.choices[0]!.message;
    messages.push(message);
    for (const call of message.tool_calls ?? [])
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ status: 'open' }) });
    await client.chat.completions.create({ model: 'gpt-5.4', messages, tools, max_completion_tokens: 512 });

    // The same conversation as the driven machine holds it: the response as chatResponseOf reads it.
    const answered: Message = { role: 'assistant', content: chatResponseOf(asked).content };
    const results: Message = {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'call_9', content: { status: 'open' }, isError: false }],
    };
    const opening = requestOf([userText('Look up T-1.')]);
    const expected = { ...opening, messages: [...opening.messages, answered, results] };
    expect(chatCanonicalOf(firstBody).request).toEqual(opening);
    expect(chatCanonicalOf(lastBody()).request).toEqual(expected);
    expect(hashOf(chatCanonicalOf(lastBody()).request)).toBe(hashOf(expected));
    // The SDK's own message carries refusal: null and annotations: [], which say nothing: none is kept.
    expect((lastBody().messages as JsonObject[])[2]).toMatchObject({ refusal: null, annotations: [] });
  });
});
