import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart, ModelResponse } from '../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../src/json/index.js';
import type { ProviderEmulator, ProviderSubject } from '../../src/testing/index.js';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore } from '../../src/store/index.js';
import { testAgent } from '../support/test-agents.js';
import { EMULATED_MODEL, aiSdkAnthropicSubject, anthropicSubject } from '../support/emulators/anthropic-subjects.js';

const usage = { inputTokens: 20, outputTokens: 9, cacheReadTokens: 4 };
const turn = (id: string, content: MessagePart[], stopReason: ModelResponse['stopReason']): ModelResponse => ({
  id,
  model: EMULATED_MODEL,
  content,
  stopReason,
  usage,
});

// A turn that reasons (visible with a signature, and redacted), then asks for two lookups at once.
const thinkingTurn = turn(
  'msg_e2e_1',
  [
    { type: 'thinking', thinking: 'Both keys are needed.', signature: 'sig-E2E-verbatim+/=' },
    { type: 'redacted_thinking', data: 'REDACTED-E2E-opaque==' },
    { type: 'text', text: 'Looking both up.' },
    { type: 'tool_use', id: 'toolu_e2e_a', name: 'echo', input: { key: 'a' } },
    { type: 'tool_use', id: 'toolu_e2e_b', name: 'echo', input: { key: 'b' } },
  ],
  'tool_use',
);
const secondTurn = turn(
  'msg_e2e_2',
  [{ type: 'tool_use', id: 'toolu_e2e_c', name: 'echo', input: { key: 'c' } }],
  'tool_use',
);
const finalTurn = turn('msg_e2e_3', [{ type: 'text', text: '{"ok":true,"keys":3}' }], 'end_turn');

const world = (subject: ProviderSubject, emulator: ProviderEmulator) => ({
  model: subject.provider(emulator.url, { maxRetries: 0 }),
  tools: { echo: (input: JsonObject) => ({ echoed: input }), write: () => ({ written: true }) },
});

/** The blocks of every assistant message in a request body the emulator received. */
const assistantBlocks = (body: JsonValue | undefined): JsonValue[] => {
  const messages = (body as { messages?: { role: string; content: JsonValue[] }[] } | undefined)?.messages ?? [];
  return messages.filter((message) => message.role === 'assistant').flatMap((message) => message.content);
};

describe.each([
  ['fromAnthropic over @anthropic-ai/sdk', anthropicSubject],
  ['fromAiSdk over @ai-sdk/anthropic', aiSdkAnthropicSubject],
])('%s against the Anthropic emulator', (_name, subject) => {
  let emulator: ProviderEmulator;
  beforeAll(async () => {
    emulator = await subject.start();
  });
  afterAll(async () => {
    await emulator.close();
  });
  const agent = testAgent({ model: EMULATED_MODEL });

  it('records a tool loop with parallel calls and reasoning, sends the signature and redacted data back verbatim, and replays it strictly with no HTTP request', async () => {
    const engine = createEngine({ store: memoryStore() });
    emulator.script([thinkingTurn, secondTurn, finalTurn].map((response) => ({ kind: 'response', response })));
    const before = emulator.received().length;
    const run = await engine.record({ agent, world: world(subject, emulator), input: { task: 'three keys' } });

    expect(run.status).toBe('completed');
    expect(run.outcome).toEqual({ ok: true, keys: 3 });
    expect(run.steps.map((step) => step.kind)).toEqual(['model', 'echo', 'echo', 'model', 'echo', 'model']);
    const bodies = emulator.received().slice(before);
    expect(bodies).toHaveLength(3);
    // The reasoning of turn 1 goes back as the API gave it, in its place, in both later requests.
    const reasoning = [
      { type: 'thinking', thinking: 'Both keys are needed.', signature: 'sig-E2E-verbatim+/=' },
      { type: 'redacted_thinking', data: 'REDACTED-E2E-opaque==' },
    ];
    for (const body of bodies.slice(1)) expect(assistantBlocks(body).slice(0, 2)).toEqual(reasoning);
    // Both parallel results go back, under their own call ids, in the order the calls were made.
    const results = JSON.stringify(bodies[1]);
    expect(results.indexOf('toolu_e2e_a')).toBeLessThan(results.indexOf('toolu_e2e_b'));
    expect(results).toContain(JSON.stringify(JSON.stringify({ echoed: { key: 'b' } })).slice(1, -1));
    expect(run.steps[0]?.response).toMatchObject({
      id: 'msg_e2e_1',
      stopReason: 'tool_use',
      usage: { inputTokens: 20, outputTokens: 9, cacheReadTokens: 4 },
    });

    emulator.script([]);
    const replayFrom = emulator.received().length;
    const replay = await engine.replay({ agent, cassette: await engine.cassette(run.runId), mode: 'strict' });
    expect(replay.status).toBe('completed');
    expect(replay.outcome).toEqual(run.outcome);
    expect(replay.steps.map((step) => step.provenance)).toEqual(run.steps.map(() => 'recorded'));
    expect(emulator.received().length - replayFrom).toBe(0);
  });

  it("fails the run PROVIDER_REJECTED, with the provider's message, when the API refuses the temperature it was sent", async () => {
    const engine = createEngine({ store: memoryStore() });
    const message = '`temperature` is deprecated for this model.';
    emulator.script([{ kind: 'error', status: 400, message }]);
    const warm = testAgent({ model: EMULATED_MODEL, params: { maxTokens: 256, temperature: 0.7 } });
    const run = await engine.record({ agent: warm, world: world(subject, emulator), input: { task: 'warm' } });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'PROVIDER_REJECTED', step: 1 });
    expect(run.error?.message).toContain(message);
    expect(emulator.received().at(-1)).toMatchObject({ temperature: 0.7 });
  });
});
