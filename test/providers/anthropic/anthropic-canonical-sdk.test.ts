import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { neutralRequestOfAnthropicBody } from '../../../src/providers/anthropic/anthropic-canonical.js';
import type { HttpEmulator } from '../../support/emulators/http-emulator.js';
import { startHttpEmulator } from '../../support/emulators/http-emulator.js';
import { anthropicWire } from '../../support/emulators/anthropic-emulator.js';
import { hashOf } from './expressible-requests.js';

interface Seen {
  readonly body: JsonObject;
  readonly betas: string[];
}

let emulator: HttpEmulator;
const seen: Seen[] = [];
beforeAll(async () => {
  emulator = await startHttpEmulator(anthropicWire);
});
afterAll(async () => {
  await emulator.close();
});

// What a session will sit in: the SDK's own middleware, which sees each request as the SDK built it.
const client = () =>
  new Anthropic({
    apiKey: 'test-key',
    baseURL: emulator.url,
    maxRetries: 0,
    middleware: [
      async (request, next) => {
        const parsed = JSON.parse(typeof request.body === 'string' ? request.body : 'null') as JsonValue;
        if (!isJsonObject(parsed)) throw new Error('the SDK sent no JSON body');
        const header = request.headers.get('anthropic-beta') ?? '';
        seen.push({ body: parsed, betas: header === '' ? [] : header.split(',') });
        return next(request);
      },
    ],
  });

const toolTurn = {
  id: 'msg_loop_1',
  model: 'emulated-claude',
  content: [
    { type: 'text' as const, text: 'Looking it up.' },
    { type: 'tool_use' as const, id: 'toolu_loop_1', name: 'lookup', input: { key: 'sky' } },
  ],
  stopReason: 'tool_use' as const,
  usage: { inputTokens: 5, outputTokens: 3 },
};
const finalTurn = {
  ...toolTurn,
  id: 'msg_loop_2',
  content: [{ type: 'text' as const, text: 'Blue.' }],
  stopReason: 'end_turn' as const,
};
const lookupTool = {
  name: 'lookup',
  description: 'Looks a key up.',
  input_schema: { type: 'object' as const, properties: { key: { type: 'string' } } },
};

describe('the inverse over requests a hand-written loop makes with @anthropic-ai/sdk', () => {
  it('maps a two-turn tool loop that sends back the response content as it came, string shorthand and all', async () => {
    emulator.script([toolTurn, finalTurn].map((response) => ({ kind: 'response' as const, response })));
    seen.length = 0;
    const anthropic = client();
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Why is the sky blue?' }];
    const ask = () =>
      anthropic.messages.create({
        model: 'emulated-claude',
        max_tokens: 512,
        system: 'Be brief.',
        tools: [lookupTool],
        messages,
      });
    const first = await ask();
    messages.push({ role: 'assistant', content: first.content });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_loop_1', content: 'blue' }],
    });
    await ask();

    const expected: ModelRequest = {
      model: 'emulated-claude',
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Why is the sky blue?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking it up.' },
            { type: 'tool_use', id: 'toolu_loop_1', name: 'lookup', input: { key: 'sky' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'toolu_loop_1', content: 'blue', isError: false }],
        },
      ],
      tools: [{ name: 'lookup', description: 'Looks a key up.', inputSchema: lookupTool.input_schema }],
      params: { maxTokens: 512 },
    };
    expect(seen).toHaveLength(2);
    const second = neutralRequestOfAnthropicBody(seen[1]?.body ?? {});
    expect(second.request).toEqual(expected);
    expect(hashOf(second.request)).toBe(hashOf(expected));
    expect(neutralRequestOfAnthropicBody(seen[0]?.body ?? {}).request).toEqual({
      ...expected,
      messages: expected.messages.slice(0, 1),
    });
  });

  it('keeps tool_choice, a system of blocks and the beta header in the hash, and the stream flag, metadata and cache breakpoints out', async () => {
    emulator.script([{ kind: 'response', response: finalTurn }]);
    seen.length = 0;
    await client().beta.messages.create({
      model: 'emulated-claude',
      max_tokens: 256,
      betas: ['context-1m-2025-08-07'],
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      tools: [lookupTool],
      tool_choice: { type: 'tool', name: 'lookup' },
      metadata: { user_id: 'end-user-7' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Sky?', cache_control: { type: 'ephemeral' } }] }],
    });
    const [call] = seen;
    if (call === undefined) throw new Error('the SDK sent nothing');
    expect(call.body).not.toHaveProperty('betas'); // the SDK moved it to the header
    const back = neutralRequestOfAnthropicBody(call.body, { betas: call.betas });
    expect(back.request.params.provider).toEqual({
      anthropic: {
        betas: ['context-1m-2025-08-07'],
        system: [{ type: 'text', text: 'Be brief.' }],
        tool_choice: { type: 'tool', name: 'lookup' },
      },
    });
    expect(back.request.system).toBe('');
    expect(back.request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Sky?' }] }]);
    expect(back.outsideHash).toEqual({
      metadata: { user_id: 'end-user-7' },
      'system[0].cache_control': { type: 'ephemeral' },
      'messages[0].content[0].cache_control': { type: 'ephemeral' },
    });
    const withoutBeta = neutralRequestOfAnthropicBody(call.body);
    expect(hashOf(withoutBeta.request)).not.toBe(hashOf(back.request));
  });

  it('says a request asked for a stream, and hashes it as the same request unstreamed', async () => {
    seen.length = 0;
    emulator.script([{ kind: 'response', response: finalTurn }]);
    const body = { model: 'emulated-claude', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };
    // The emulator answers JSON, not SSE: the SDK's stream fails to parse it, after the body was sent.
    await client()
      .messages.create({ ...body, stream: true })
      .then((stream) => {
        stream.controller.abort();
      })
      .catch(() => undefined);
    const streamed = neutralRequestOfAnthropicBody(seen[0]?.body ?? {});
    const plain = neutralRequestOfAnthropicBody(body);
    expect(streamed.stream).toBe(true);
    expect(plain.stream).toBe(false);
    expect(streamed.outsideHash).toEqual({ stream: true });
    expect(hashOf(streamed.request)).toBe(hashOf(plain.request));
  });
});
