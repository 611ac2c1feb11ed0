import type Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelResponse } from '../../src/conversation/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { JsonObject } from '../../src/json/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import type { Session } from '../../src/wrap/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { LOOP_MODEL } from './support/claim-world.js';
import { anthropicThrough, forkpointErrorIn, textAnswer } from './support/session-fixtures.js';

// A loop that runs the tool calls of one answer at once sees them finish in any order; a session numbers them
// by where the answer lists them (DESIGN, section 2), so a recording and its replay key them the same way
// whichever finishes first.

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

let minted = 0;
/** An answer asking for two documents at once, A listed first. */
function twoDocuments(): ModelResponse {
  minted += 1;
  return {
    id: `msg_parallel_${minted}`,
    model: LOOP_MODEL,
    content: [
      { type: 'text', text: 'Reading both documents.' },
      { type: 'tool_use', id: `toolu_${minted}_a`, name: 'read_document', input: { doc: 'A' } },
      { type: 'tool_use', id: `toolu_${minted}_b`, name: 'read_document', input: { doc: 'B' } },
    ],
    stopReason: 'tool_use',
    usage: { inputTokens: 50, outputTokens: 20 },
  };
}

/** The document tool: `slow` is the document that takes longer, so the other finishes first. */
function documents(slow: 'A' | 'B') {
  const finished: string[] = [];
  return {
    finished,
    read: async (input: JsonObject) => {
      const doc = typeof input.doc === 'string' ? input.doc : '';
      await new Promise((resolve) => setTimeout(resolve, doc === slow ? 40 : 1));
      finished.push(doc);
      return { doc, text: `contents of ${doc}` };
    },
  };
}

/** A while loop that runs each answer's tool calls at once (`reverse`: starting the last listed first). */
async function parallelLoop(client: Anthropic, read: (input: JsonObject) => Promise<unknown>, reverse = false) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Compare documents A and B.' }];
  for (let turn = 0; turn < 4; turn++) {
    const message = await client.messages.create({ model: LOOP_MODEL, max_tokens: 256, messages });
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    if (uses.length === 0) return;
    const started = (reverse ? [...uses].reverse() : uses).map(async (use) => ({
      use,
      output: await read(use.input as JsonObject),
    }));
    const results = await Promise.all(started);
    const inListedOrder = uses.map((use) => results.find((result) => result.use === use)!);
    messages.push({
      role: 'user',
      content: inListedOrder.map(({ use, output }) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: JSON.stringify(output),
      })),
    });
  }
}

const engine = createEngine({ store: memoryStore() });
const keys = (run: { steps: ReadonlyArray<{ step: number; kind: string; index: number; request: unknown }> }) =>
  run.steps.map((step) => ({ step: step.step, key: `${step.kind}#${step.index}`, request: step.request }));
const listed = (first: 'A' | 'B') => [
  { step: 1, key: 'model#0', request: expect.anything() as unknown },
  { step: 2, key: `read_document#${first === 'A' ? 0 : 1}`, request: { tool: 'read_document', input: { doc: first } } },
  {
    step: 3,
    key: `read_document#${first === 'A' ? 1 : 0}`,
    request: { tool: 'read_document', input: { doc: first === 'A' ? 'B' : 'A' } },
  },
  { step: 4, key: 'model#1', request: expect.anything() as unknown },
];

describe('tool calls run at once', () => {
  for (const reverse of [false, true]) {
    it(`are keyed by the answer's listing, not by which finished first${reverse ? ' (started last first)' : ''}, and replay`, async () => {
      const agent = `parallel-loop${reverse ? ' (reversed)' : ''}`;
      emulator.script([
        { kind: 'response', response: twoDocuments() },
        { kind: 'response', response: textAnswer('same') },
      ]);
      const session = await engine.session({ mode: 'record', agent });
      const recording = documents('A');
      await parallelLoop(
        anthropicThrough(session, emulator.url),
        session.tool('read_document', recording.read),
        reverse,
      );
      const recorded = await session.close();
      expect(recording.finished).toEqual(['B', 'A']);
      expect(recorded.status).toBe('completed');
      // Steps in the order the calls began; indexes by the listing, A first.
      expect(keys(recorded)).toEqual(listed(reverse ? 'B' : 'A'));
      // Replayed with the other finishing first: the same keys, no tool called, no request sent.
      const before = emulator.received().length;
      const replaying = documents('B');
      const replay = await engine.session({ mode: 'replay:strict', agent, source: recorded.runId });
      await parallelLoop(anthropicThrough(replay, emulator.url), replay.tool('read_document', replaying.read), reverse);
      const replayed = await replay.close();
      expect(replayed.status).toBe('completed');
      expect(keys(replayed)).toEqual(keys(recorded));
      expect(replaying.finished).toEqual([]);
      expect(emulator.received().length - before).toBe(0);
    });
  }

  it("are keyed by the listing in the AI SDK's generateText, which runs them at once, and replay", async () => {
    const agent = 'parallel-loop (ai sdk)';
    const run = async (session: Session, slow: 'A' | 'B') => {
      const tools = documents(slow);
      const model = wrapLanguageModel({
        model: createAnthropic({ baseURL: `${emulator.url}/v1`, apiKey: 'test-key' })(LOOP_MODEL),
        middleware: session.aiSdk(),
      });
      await generateText({
        model,
        prompt: 'Compare documents A and B.',
        tools: session.aiSdkTools({
          read_document: tool({
            inputSchema: jsonSchema<JsonObject>({ type: 'object', properties: { doc: { type: 'string' } } }),
            execute: tools.read,
          }),
        }),
        stopWhen: stepCountIs(4),
        maxRetries: 0,
      });
      return { tools, run: await session.close() };
    };
    emulator.script([
      { kind: 'response', response: twoDocuments() },
      { kind: 'response', response: textAnswer('same') },
    ]);
    const recorded = await run(await engine.session({ mode: 'record', agent }), 'A');
    expect(recorded.tools.finished).toEqual(['B', 'A']);
    expect(keys(recorded.run)).toEqual(listed('A'));
    const before = emulator.received().length;
    const replayed = await run(await engine.session({ mode: 'replay:strict', agent, source: recorded.run.runId }), 'B');
    expect(replayed.run.status).toBe('completed');
    expect(keys(replayed.run)).toEqual(keys(recorded.run));
    expect(replayed.tools.finished).toEqual([]);
    expect(emulator.received().length - before).toBe(0);
  });

  it('all settle when the first fails the session and the second answers after it', async () => {
    emulator.script([{ kind: 'response', response: twoDocuments() }]);
    const session = await engine.session({ mode: 'record', agent: 'parallel-loop (failing)' });
    const read = session.tool('read_document', async (input: JsonObject) => {
      if (input.doc === 'A') return { at: new Date(0) }; // not JSON: the session stops at step 2
      await new Promise((resolve) => setTimeout(resolve, 40));
      return { doc: 'B' };
    });
    const client = anthropicThrough(session, emulator.url);
    const message = await client.messages.create({
      model: LOOP_MODEL,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Compare documents A and B.' }],
    });
    const uses = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    const settled = await Promise.allSettled(uses.map((use) => read(use.input as JsonObject)));
    const codes = settled.map((result) =>
      result.status === 'rejected' ? forkpointErrorIn(result.reason)?.code : 'ok',
    );
    expect(codes).toEqual(['AGENT_CODE_FAILED', 'SESSION_MISUSE']);
    const run = await session.close();
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'AGENT_CODE_FAILED', step: 2 });
    expect(run.steps.map((step) => `${step.kind}#${step.index}`)).toEqual(['model#0']);
  });
});
