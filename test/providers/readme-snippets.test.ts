import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/json/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import { createEngine, defineAgent, memoryStore } from '../../src/index.js';
import { fromAiSdk } from '../../src/entries/ai-sdk.js';
import { fromAnthropic } from '../../src/entries/anthropic.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';

// The snippets of the README's "Use it with your own agent", run as they are written there: only the
// client's base URL (the emulator's, where the README's client reads ANTHROPIC_BASE_URL) and its key differ.

let emulator: ProviderEmulator;
let baseURL: string;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
  baseURL = emulator.url;
});
afterAll(async () => {
  await emulator.close();
});

/** The agent both snippets record: one read-only tool, a JSON answer. */
const agent = defineAgent({
  name: 'lookup-agent',
  build: 'v1',
  systemPrompt: 'Look the key up, then answer with JSON.',
  model: 'emulated-claude',
  params: { maxTokens: 1024 },
  tools: [{ name: 'lookup', description: 'Looks a key up.', inputSchema: { type: 'object' }, readOnly: true }],
  stepCap: 10,
  renderInput: (input) => `Look up ${JSON.stringify(input.key ?? null)}.`,
  parseOutcome: (text) => ({ ok: true, outcome: JSON.parse(text) as JsonObject }),
});
const lookup = (input: JsonObject) => ({ key: input.key ?? null, value: 42 });

const script = () => {
  emulator.script([
    {
      kind: 'response',
      response: {
        id: 'msg_readme_1',
        model: 'emulated-claude',
        content: [{ type: 'tool_use', id: 'toolu_readme', name: 'lookup', input: { key: 'answer' } }],
        stopReason: 'tool_use',
        usage: { inputTokens: 30, outputTokens: 12 },
      },
    },
    {
      kind: 'response',
      response: {
        id: 'msg_readme_2',
        model: 'emulated-claude',
        content: [{ type: 'text', text: '{"answer":42}' }],
        stopReason: 'end_turn',
        usage: { inputTokens: 60, outputTokens: 6 },
      },
    },
  ]);
};

describe('the README snippets', () => {
  it("the README's Anthropic snippet", async () => {
    script();
    const asked = emulator.received().length;
    // --- README
    const client = new Anthropic({ apiKey: 'test-key', baseURL });
    const engine = createEngine({ store: memoryStore() });
    const run = await engine.record({
      agent,
      world: { model: fromAnthropic(client), tools: { lookup } },
      input: { key: 'answer' },
    });
    const replay = await engine.replay({ agent, cassette: await engine.cassette(run.runId), mode: 'strict' });
    // --- end
    expect(run).toMatchObject({ status: 'completed', outcome: { answer: 42 } });
    expect(replay).toMatchObject({ status: 'completed', outcome: { answer: 42 }, divergence: null });
    expect(emulator.received().length - asked).toBe(2);
  });

  it("the README's AI SDK snippet", async () => {
    script();
    const asked = emulator.received().length;
    // --- README
    const anthropic = createAnthropic({ apiKey: 'test-key', baseURL: `${baseURL}/v1` });
    const engine = createEngine({ store: memoryStore() });
    const model = fromAiSdk(anthropic('emulated-claude'));
    const run = await engine.record({ agent, world: { model, tools: { lookup } }, input: { key: 'answer' } });
    const replay = await engine.replay({ agent, cassette: await engine.cassette(run.runId), mode: 'strict' });
    // --- end
    expect(run).toMatchObject({ status: 'completed', outcome: { answer: 42 } });
    expect(replay).toMatchObject({ status: 'completed', outcome: { answer: 42 }, divergence: null });
    expect(emulator.received().length - asked).toBe(2);
  });
});
