import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { canonicalOfAiSdkCall } from '../../../src/providers/ai-sdk/ai-sdk-canonical.js';
import { fromAiSdk } from '../../../src/providers/index.js';
import type { ProviderEmulator } from '../../../src/testing/index.js';
import { startAnthropicEmulator } from '../../support/emulators/anthropic-emulator.js';
import { EMULATED_MODEL } from '../../support/emulators/anthropic-subjects.js';
import { hashOf } from './canonical-support.js';

// The real `ai` loop (generateText with tools and a multi-step stop condition) over the real @ai-sdk/anthropic,
// against the Messages API emulator on 127.0.0.1: a middleware keeps the call options each step hands the model,
// the inverse maps them, and the result must be the request a driven run would have made, and make the same call.

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const anthropicModel = () => createAnthropic({ baseURL: `${emulator.url}/v1`, apiKey: 'test-key' })(EMULATED_MODEL);

/** The model wrapped in a middleware that keeps every call's options, as a session's will see them. */
function recordingModel() {
  const calls: LanguageModelV3CallOptions[] = [];
  const inner = anthropicModel();
  const model = wrapLanguageModel({
    model: inner,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: ({ doGenerate, params }) => {
        calls.push(params);
        return doGenerate();
      },
    },
  });
  return { model, calls, identity: { provider: inner.provider, modelId: inner.modelId } };
}

const answer = (response: Omit<ModelResponse, 'model' | 'usage'>) => ({
  kind: 'response' as const,
  response: { model: EMULATED_MODEL, usage: { inputTokens: 5, outputTokens: 3 }, ...response },
});

const lookupSchema: JsonObject = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] };
const lookup = tool({
  description: 'Looks a key up.',
  inputSchema: jsonSchema<{ key: string }>(lookupSchema),
  execute: ({ key }) => Promise.resolve(`value of ${key}`),
});

/**
 * A wire body without the two defaults `ai` spells out and a driven request leaves to the API: `tool_choice`
 * `auto` (the specification's default) and a tool call's `caller` `direct` (the API's own). Nothing else is
 * taken out, so any other difference fails the comparison.
 */
function withoutSpelledDefaults(body: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(body)) return body;
  const { tool_choice: choice, messages, ...rest } = body;
  const messagesLeft = Array.isArray(messages)
    ? messages.map((message: JsonValue) =>
        isJsonObject(message) && Array.isArray(message.content)
          ? {
              ...message,
              content: message.content.map((block: JsonValue) => {
                if (!isJsonObject(block) || !isJsonObject(block.caller) || block.caller.type !== 'direct') return block;
                const { caller: _direct, ...kept } = block;
                return kept;
              }),
            }
          : message,
      )
    : messages;
  const auto = isJsonObject(choice) && choice.type === 'auto' && Object.keys(choice).length === 1;
  return {
    ...rest,
    ...(messagesLeft === undefined ? {} : { messages: messagesLeft }),
    ...(auto || choice === undefined ? {} : { tool_choice: choice }),
  };
}

/** The body a driven run's adapter (fromAiSdk over the same model) sends for `request`. */
async function drivenBody(request: ModelRequest): Promise<JsonValue | undefined> {
  emulator.script([answer({ id: 'msg_driven', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' })]);
  await fromAiSdk(anthropicModel(), { maxRetries: 0 }).respond(request);
  return emulator.received().at(-1);
}

describe('canonicalOfAiSdkCall over the real SDK', () => {
  it("maps each step of generateText's tool loop to the request a driven run makes, which sends the same body", async () => {
    const { model, calls, identity } = recordingModel();
    emulator.script([
      answer({
        id: 'msg_1',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_a1', name: 'lookup', input: { key: 'a' } },
        ],
        stopReason: 'tool_use',
      }),
      answer({ id: 'msg_2', content: [{ type: 'text', text: 'a is value of a.' }], stopReason: 'end_turn' }),
    ]);
    const before = emulator.received().length;
    const result = await generateText({
      model,
      system: 'Be brief.',
      prompt: 'Look a up.',
      tools: { lookup },
      stopWhen: stepCountIs(4),
      maxOutputTokens: 300,
      temperature: 0.2,
      headers: { 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14' },
      maxRetries: 0,
    });
    expect(result.text).toBe('a is value of a.');
    const sdkBodies = emulator.received().slice(before);
    expect(calls).toHaveLength(2);

    const params: ModelRequest['params'] = {
      maxTokens: 300,
      temperature: 0.2,
      provider: { 'ai-sdk': { headers: { 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14' } } },
    };
    const head = {
      model: EMULATED_MODEL,
      system: 'Be brief.',
      tools: [{ name: 'lookup', description: 'Looks a key up.', inputSchema: lookupSchema }],
      params,
    };
    const asked: ModelRequest['messages'][number] = { role: 'user', content: [{ type: 'text', text: 'Look a up.' }] };
    const driven: ModelRequest[] = [
      { ...head, messages: [asked] },
      {
        ...head,
        messages: [
          asked,
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Looking.' },
              { type: 'tool_use', id: 'toolu_a1', name: 'lookup', input: { key: 'a' } },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', toolUseId: 'toolu_a1', content: 'value of a', isError: false }],
          },
        ],
      },
    ];
    for (const [k, call] of calls.entries()) {
      const mapped = canonicalOfAiSdkCall(call, identity);
      const expected = driven[k];
      if (expected === undefined) throw new Error(`no driven request for call ${k}`);
      expect(mapped.request).toEqual(expected);
      expect(hashOf(mapped.request)).toBe(hashOf(expected));
      expect(withoutSpelledDefaults(await drivenBody(mapped.request))).toEqual(withoutSpelledDefaults(sdkBodies[k]));
    }
    expect(canonicalOfAiSdkCall(calls[1], identity).leftOut).toEqual([
      'headers.user-agent',
      'providerOptions.anthropic.caller',
      'toolChoice',
    ]);
  });

  it('lifts a thinking budget and keeps the signed reasoning the next step sends back, as a driven run has them', async () => {
    const { model, calls, identity } = recordingModel();
    emulator.script([
      answer({
        id: 'msg_t1',
        content: [
          { type: 'thinking', thinking: 'I should look b up.', signature: 'sig-real-1' },
          { type: 'tool_use', id: 'toolu_b1', name: 'lookup', input: { key: 'b' } },
        ],
        stopReason: 'tool_use',
      }),
      answer({ id: 'msg_t2', content: [{ type: 'text', text: 'b is value of b.' }], stopReason: 'end_turn' }),
    ]);
    const before = emulator.received().length;
    await generateText({
      model,
      messages: [{ role: 'user', content: 'Look b up.' }],
      tools: { lookup },
      stopWhen: stepCountIs(4),
      maxOutputTokens: 500,
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 }, sendReasoning: true } },
      maxRetries: 0,
    });
    const sdkBodies = emulator.received().slice(before);
    const second = canonicalOfAiSdkCall(calls[1], identity).request;
    expect(second.system).toBe('');
    expect(second.params).toEqual({
      maxTokens: 1524,
      thinking: { budgetTokens: 1024 },
      provider: { 'ai-sdk': { providerOptions: { anthropic: { sendReasoning: true } } } },
    });
    expect(second.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should look b up.', signature: 'sig-real-1' },
        { type: 'tool_use', id: 'toolu_b1', name: 'lookup', input: { key: 'b' } },
      ],
    });
    for (const [k, call] of calls.entries()) {
      const { request } = canonicalOfAiSdkCall(call, identity);
      expect(withoutSpelledDefaults(await drivenBody(request))).toEqual(withoutSpelledDefaults(sdkBodies[k]));
    }
  });

  it('hashes a loop the same in two runs whose provider minted other tool-call ids and signatures', async () => {
    const hashes: string[][] = [];
    for (const run of ['x', 'y']) {
      const { model, calls, identity } = recordingModel();
      emulator.script([
        answer({
          id: `msg_${run}`,
          content: [
            { type: 'thinking', thinking: 'Look it up.', signature: `sig-${run}` },
            { type: 'tool_use', id: `toolu_${run}`, name: 'lookup', input: { key: 'c' } },
          ],
          stopReason: 'tool_use',
        }),
        answer({ id: `msg_${run}2`, content: [{ type: 'text', text: 'Done.' }], stopReason: 'end_turn' }),
      ]);
      await generateText({
        model,
        prompt: 'Look c up.',
        tools: { lookup },
        stopWhen: stepCountIs(3),
        maxOutputTokens: 200,
        maxRetries: 0,
      });
      hashes.push(calls.map((call) => hashOf(canonicalOfAiSdkCall(call, identity).request)));
    }
    expect(hashes[0]).toHaveLength(2);
    expect(hashes[1]).toEqual(hashes[0]);
  });
});
