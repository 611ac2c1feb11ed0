import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { jsonSchema, simulateReadableStream, streamText, tool, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart, ModelResponse } from '../../../src/conversation/index.js';
import type { JsonValue } from '../../../src/json/index.js';
import {
  neutralResultOfStreamParts,
  revivedGenerateResult,
  revivedStreamParts,
  storedGenerateResult,
  storedStreamParts,
} from '../../../src/providers/index.js';
import { neutralResultOf } from '../../../src/providers/ai-sdk/ai-sdk-result.js';
import { startAnthropicEmulator } from '../../support/emulators/anthropic-emulator.js';
import { EMULATED_MODEL } from '../../support/emulators/anthropic-subjects.js';
import type { HttpEmulator } from '../../support/emulators/http-emulator.js';

// `ai`'s streamText over the real @ai-sdk/anthropic, against the Messages API emulator streaming on 127.0.0.1:
// a middleware keeps the stream parts the model hands `ai`, as a session's wrapStream will; forkpoint's assembly of
// them must be what `ai` made of them, and what the non-streamed call maps to; stored and revived, they must be
// the same parts, and `ai` must make the same answer of them.

let emulator: HttpEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const anthropicModel = () => createAnthropic({ baseURL: `${emulator.url}/v1`, apiKey: 'test-key' })(EMULATED_MODEL);

/** The model wrapped in a middleware that keeps the parts of every stream it passes on, unchanged. */
function tappedModel() {
  const streams: LanguageModelV3StreamPart[][] = [];
  const inner = anthropicModel();
  const model = wrapLanguageModel({
    model: inner,
    middleware: {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        const parts: LanguageModelV3StreamPart[] = [];
        streams.push(parts);
        const tap = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            parts.push(part);
            controller.enqueue(part);
          },
        });
        return { ...result, stream: result.stream.pipeThrough(tap) };
      },
    },
  });
  return { model, inner, streams };
}

/** The model answering every stream with `parts`, as a replay does: nothing reaches the emulator. */
const replayingModel = (parts: readonly LanguageModelV3StreamPart[]) =>
  wrapLanguageModel({
    model: anthropicModel(),
    middleware: {
      specificationVersion: 'v3',
      wrapStream: () => Promise.resolve({ stream: simulateReadableStream({ chunks: [...parts] }) }),
    },
  });

const reply = (content: MessagePart[], stopReason: ModelResponse['stopReason']): ModelResponse => ({
  id: 'msg_ai_stream',
  model: EMULATED_MODEL,
  content,
  stopReason,
  usage: { inputTokens: 25, outputTokens: 14, cacheReadTokens: 5, cacheWriteTokens: 3 },
});
const toolTurn = reply(
  [
    { type: 'thinking', thinking: 'Both keys are needed, a first.', signature: 'sig-AI+/=' },
    { type: 'redacted_thinking', data: 'REDACTED-AI==' },
    { type: 'text', text: 'Looking both keys up.' },
    { type: 'tool_use', id: 'toolu_ai_a', name: 'lookup', input: { key: 'a', deep: { list: [1, 'é'] } } },
    { type: 'tool_use', id: 'toolu_ai_b', name: 'lookup', input: { key: 'b' } },
  ],
  'tool_use',
);
const textTurn = reply([{ type: 'text', text: 'Both values are known now: 1 and 2, as asked.' }], 'end_turn');

// streamText stops after one step unless told otherwise: one model call, its tool calls run once.
const tools = {
  lookup: tool({
    description: 'Looks a key up.',
    inputSchema: jsonSchema<{ key: string }>({ type: 'object', properties: { key: { type: 'string' } } }),
    execute: ({ key }) => Promise.resolve(`value of ${key}`),
  }),
};
const callOptions: LanguageModelV3CallOptions = {
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'Look up a and b.' }] }],
  maxOutputTokens: 200,
};

async function partsOf(stream: ReadableStream<LanguageModelV3StreamPart>): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** What a user's streaming code reads of a streamText run: its deltas in order, its text, calls and usage. */
async function readRun(run: ReturnType<typeof streamText<typeof tools>>) {
  const deltas: string[] = [];
  for await (const part of run.fullStream)
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') deltas.push(part.text);
  return {
    deltas,
    text: await run.text,
    reasoning: await run.reasoningText,
    toolCalls: (await run.toolCalls).map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
    finishReason: await run.finishReason,
    usage: await run.usage,
  };
}

describe.each([
  ['thinking, text and two tool calls', toolTurn],
  ['a text', textTurn],
])('streamText over @ai-sdk/anthropic streaming %s', (_name, response) => {
  it("assembles the model's stream parts into what `ai` read from them", async () => {
    emulator.script([{ kind: 'response', response }]);
    const { model, inner, streams } = tappedModel();
    const read = await readRun(streamText({ model, tools, prompt: 'Look up a and b.', maxOutputTokens: 200 }));
    const [parts] = streams;
    const neutral = neutralResultOfStreamParts(inner, parts!);
    const texts = neutral.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(texts.join('')).toBe(read.text);
    const thinking = neutral.content.flatMap((part) => (part.type === 'thinking' ? [part.thinking] : []));
    expect(thinking.join('')).toBe(read.reasoning ?? '');
    expect(neutral.content.filter((part) => part.type === 'tool_use')).toEqual(
      read.toolCalls.map((call) => ({ type: 'tool_use', id: call.toolCallId, name: call.toolName, input: call.input })),
    );
    expect(neutral.usage.outputTokens).toBe(read.usage.outputTokens);
    expect(neutral.content).toEqual(response.content);
    expect(neutral.stopReason).toBe(response.stopReason);
  });

  it('maps the stream as the non-streamed call of the same scripted response maps', async () => {
    const model = anthropicModel();
    emulator.script([{ kind: 'response', response }]);
    const generated = await model.doGenerate(callOptions);
    emulator.script([{ kind: 'response', response }]);
    const parts = await partsOf((await model.doStream(callOptions)).stream);
    expect(emulator.sentStream()).toBeDefined();
    expect(neutralResultOfStreamParts(model, parts)).toEqual(neutralResultOf(model, generated));
  });

  it('stores the stream parts, raw ones too, as JSON that revives to equal parts', async () => {
    const model = anthropicModel();
    emulator.script([{ kind: 'response', response }]);
    const parts = await partsOf((await model.doStream({ ...callOptions, includeRawChunks: true })).stream);
    expect(parts.some((part) => part.type === 'raw')).toBe(true);
    const text = JSON.stringify(storedStreamParts(parts));
    expect(revivedStreamParts(JSON.parse(text) as JsonValue)).toStrictEqual(parts);
  });

  it('stores the generate result without its request or raw HTTP answer, reviving the rest equal', async () => {
    const model = anthropicModel();
    emulator.script([{ kind: 'response', response }]);
    const result = await model.doGenerate(callOptions);
    expect(result.request?.body).toBeDefined();
    expect(result.response?.headers).toBeDefined();
    const revived = revivedGenerateResult(JSON.parse(JSON.stringify(storedGenerateResult(result))) as JsonValue);
    const { request: _request, response: answer, ...rest } = result;
    const { headers: _headers, body: _body, ...metadata } = answer ?? {};
    expect(revived).toStrictEqual({ ...rest, response: metadata });
    expect(neutralResultOf(model, revived)).toEqual(neutralResultOf(model, result));
  });

  it('gives `ai` the same answer when the revived parts are served, with no request made', async () => {
    emulator.script([{ kind: 'response', response }]);
    const { model, streams } = tappedModel();
    const live = await readRun(streamText({ model, tools, prompt: 'Look up a and b.', maxOutputTokens: 200 }));
    const asked = emulator.received().length;
    const revived = revivedStreamParts(JSON.parse(JSON.stringify(storedStreamParts(streams[0]!))) as JsonValue);
    const replayed = await readRun(
      streamText({
        model: replayingModel(revived as LanguageModelV3StreamPart[]),
        tools,
        prompt: 'Look up a and b.',
        maxOutputTokens: 200,
      }),
    );
    expect(replayed).toEqual(live);
    expect(emulator.received()).toHaveLength(asked);
  });
});
