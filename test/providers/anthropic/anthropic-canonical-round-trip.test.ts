import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/conversation/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { fromAnthropic } from '../../../src/providers/index.js';
import { anthropicBodyOf } from '../../../src/providers/anthropic/anthropic-request.js';
import { neutralRequestOfAnthropicBody } from '../../../src/providers/anthropic/anthropic-canonical.js';
import type { HttpEmulator } from '../../support/emulators/http-emulator.js';
import { startHttpEmulator } from '../../support/emulators/http-emulator.js';
import { anthropicWire } from '../../support/emulators/anthropic-emulator.js';
import { expressibleRequest, hashOf } from './expressible-requests.js';

// JSON on the wire writes -0 as 0 and drops nothing else: the request as it reads back from its JSON text.
const asSent = (request: ModelRequest): ModelRequest => JSON.parse(JSON.stringify(request)) as ModelRequest;

describe('the inverse of the Anthropic mapping: neutral -> /v1/messages body -> neutral', () => {
  it('gives back every request the forward mapping can express, and so its hash', () => {
    fc.assert(
      fc.property(expressibleRequest, (request) => {
        const back = neutralRequestOfAnthropicBody(anthropicBodyOf(request, {}));
        expect(back.request).toEqual(request);
        expect(hashOf(back.request)).toBe(hashOf(request));
        expect(back.stream).toBe(false);
        expect(back.outsideHash).toEqual({});
      }),
      { numRuns: 300 },
    );
  });

  it('sends the body of the inverse back as the SDK sent it (forward after inverse is the identity on what it wrote)', () => {
    fc.assert(
      fc.property(expressibleRequest, (request) => {
        const body = anthropicBodyOf(request, {});
        expect(anthropicBodyOf(neutralRequestOfAnthropicBody(body).request, {})).toEqual(body);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps a driven run's metadata out of the hash, as fromAnthropic's own option does", () => {
    const request: ModelRequest = {
      model: 'm',
      system: '',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [],
      params: { maxTokens: 10 },
    };
    const back = neutralRequestOfAnthropicBody(anthropicBodyOf(request, { metadata: { user_id: 'u-1' } }));
    expect(back.request).toEqual(request);
    expect(back.outsideHash).toEqual({ metadata: { user_id: 'u-1' } });
  });

  it('reads a tool result whose content was not a string as the JSON text the forward mapping sent', () => {
    const request: ModelRequest = {
      model: 'm',
      system: '',
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'look', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: { area: 205 }, isError: false }] },
      ],
      tools: [],
      params: { maxTokens: 10 },
    };
    const [, results] = neutralRequestOfAnthropicBody(anthropicBodyOf(request, {})).request.messages;
    expect(results?.content).toEqual([
      { type: 'tool_result', toolUseId: 't1', content: '{"area":205}', isError: false },
    ]);
  });
});

describe('the inverse and the positional aliases', () => {
  it('hashes two runs of a loop alike when the API minted other tool ids and signatures, and apart when a result differs', () => {
    const bodyWith = (id: string, signature: string, result: string) => ({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'look', signature },
            { type: 'tool_use', id, name: 'look', input: {}, caller: { type: 'direct' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] },
      ],
    });
    const hash = (id: string, signature: string, result: string) =>
      hashOf(neutralRequestOfAnthropicBody(bodyWith(id, signature, result)).request);
    expect(hash('toolu_A', 'sig-A', '205')).toBe(hash('toolu_B', 'sig-B', '205'));
    expect(hash('toolu_A', 'sig-A', '205')).not.toBe(hash('toolu_B', 'sig-B', '2050'));
  });
});

describe('the inverse over the real @anthropic-ai/sdk: the body fromAnthropic made it send, read back', () => {
  let emulator: HttpEmulator;
  beforeAll(async () => {
    emulator = await startHttpEmulator(anthropicWire);
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('maps each body the SDK sent to the request the driven adapter started from, with its hash', async () => {
    const provider = fromAnthropic(new Anthropic({ apiKey: 'test-key', baseURL: emulator.url, maxRetries: 0 }));
    await fc.assert(
      fc.asyncProperty(expressibleRequest, async (request) => {
        emulator.script([
          {
            kind: 'response',
            response: {
              id: 'msg_rt',
              model: request.model,
              content: [{ type: 'text', text: 'ok' }],
              stopReason: 'end_turn',
              usage: { inputTokens: 1, outputTokens: 1 },
            },
          },
        ]);
        await provider.respond(request);
        const body = emulator.received().at(-1);
        if (!isJsonObject(body)) throw new Error('the emulator received no JSON body');
        const back = neutralRequestOfAnthropicBody(body);
        expect(back.request).toEqual(asSent(request));
        expect(hashOf(back.request)).toBe(hashOf(request));
      }),
      { numRuns: 60 },
    );
  });
});
