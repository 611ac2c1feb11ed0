import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonArray, isJsonObject } from '../../../src/json/index.js';
import type { ProviderEmulator, ProviderSubject } from '../../../src/testing/index.js';
import { createEngine } from '../../../src/engine/index.js';
import { memoryStore } from '../../../src/store/index.js';
import { openAIChatSubject, openAIResponsesSubject } from '../../support/emulators/openai-emulator.js';
import { finalTurn, syntheticWorld, testAgent, toolTurn } from '../../support/test-agents.js';

const SUBJECTS: readonly (readonly [string, ProviderSubject])[] = [
  ['fromOpenAIChat', openAIChatSubject],
  ['fromOpenAIResponses', openAIResponsesSubject],
];

// Two tool turns (the first asks for two calls at once), then the outcome. Every call mints fresh ids.
const script = () => [
  {
    kind: 'response' as const,
    response: toolTurn([
      { name: 'echo', input: { n: 0 } },
      { name: 'echo', input: { n: 1 } },
    ]),
  },
  { kind: 'response' as const, response: toolTurn([{ name: 'write', input: { record: 'r-1' } }]) },
  { kind: 'response' as const, response: finalTurn('{"ok":true,"calls":3}') },
];

// The conversation a request body sends: Chat Completions' messages, or the Responses API's input items.
function conversationOf(body: JsonValue | undefined): readonly JsonObject[] {
  if (!isJsonObject(body)) return [];
  const list = body.messages ?? body.input;
  return isJsonArray(list) ? list.filter(isJsonObject) : [];
}

// The tool-call ids a conversation sends back, and the ids its tool results answer, in order.
function toolIdsOf(body: JsonValue | undefined): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  const id = (value: JsonValue | undefined): string => (typeof value === 'string' ? value : JSON.stringify(value));
  for (const entry of conversationOf(body)) {
    if (entry.type === 'function_call') calls.push(id(entry.call_id));
    if (entry.type === 'function_call_output') results.push(id(entry.call_id));
    if (entry.role === 'tool') results.push(id(entry.tool_call_id));
    const toolCalls = entry.tool_calls;
    if (isJsonArray(toolCalls)) for (const call of toolCalls) if (isJsonObject(call)) calls.push(id(call.id));
  }
  return { calls, results };
}

describe.each(SUBJECTS)('%s over the real SDK, recorded and then replayed', (_name, subject) => {
  let emulator: ProviderEmulator;
  beforeEach(async () => {
    emulator = await subject.start();
  });
  afterEach(async () => {
    await emulator.close();
  });

  const record = async () => {
    const engine = createEngine({ store: memoryStore() });
    const agent = testAgent({ model: subject.model });
    const world = { ...syntheticWorld({ toolCalls: 0 }), model: subject.provider(emulator.url, { maxRetries: 0 }) };
    emulator.script(script());
    const run = await engine.record({ agent, world, input: { task: 't-1' } });
    return { engine, agent, run };
  };

  it('records a tool loop with parallel calls: each request sends the whole conversation, results answering calls by id', async () => {
    const { run } = await record();
    expect(run.status).toBe('completed');
    expect(run.outcome).toEqual({ ok: true, calls: 3 });
    expect(run.steps.map((step) => step.kind)).toEqual(['model', 'echo', 'echo', 'model', 'write', 'model']);
    const bodies = emulator.received();
    expect(bodies).toHaveLength(3);
    const [first, second, third] = bodies.map(toolIdsOf);
    expect(first).toEqual({ calls: [], results: [] });
    expect(second!.calls).toHaveLength(2);
    expect(second!.results).toEqual(second!.calls);
    expect(third!.calls).toHaveLength(3);
    expect(third!.results).toEqual(third!.calls);
    // The third request sends the second's conversation again, as it was, and then the turn since.
    const sent = conversationOf(bodies[1]);
    expect(conversationOf(bodies[2]).slice(0, sent.length)).toEqual(sent);
    expect(conversationOf(bodies[2]).length).toBeGreaterThan(sent.length);
  });

  it('replays the recording strictly with no HTTP request, every request hash and response as recorded', async () => {
    const { engine, agent, run } = await record();
    const before = emulator.received().length;
    const replay = await engine.replay({ agent, cassette: await engine.cassette(run.runId), mode: 'strict' });
    expect(replay.status).toBe('completed');
    expect(replay.divergence).toBeNull();
    expect(replay.outcome).toEqual(run.outcome);
    expect(emulator.received()).toHaveLength(before);
    expect(replay.steps.map((step) => step.requestHash)).toEqual(run.steps.map((step) => step.requestHash));
    expect(replay.steps.map((step) => step.response)).toEqual(run.steps.map((step) => step.response));
  });

  it('hashes a second recording of the same conversation alike, though the provider minted every id afresh', async () => {
    const first = await record();
    const second = await record();
    expect(JSON.stringify(second.run.steps)).not.toEqual(JSON.stringify(first.run.steps));
    expect(second.run.steps.map((step) => step.requestHash)).toEqual(first.run.steps.map((step) => step.requestHash));
  });
});
