import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import type { JsonObject } from '../../src/json/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { HttpEmulator } from '../support/emulators/http-emulator.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { startOpenAIEmulator } from '../support/emulators/openai-emulator.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import {
  anthropicThrough,
  askOnce,
  failureOf,
  openAIThrough,
  recordClaimRun,
  textAnswer,
} from './support/session-fixtures.js';

// Misuse of a session is refused with a typed error that says what to do, and refused before anything reaches the
// emulator or a tool: each case counts both.

let anthropic: HttpEmulator;
let openai: HttpEmulator;
beforeAll(async () => {
  anthropic = await startAnthropicEmulator();
  openai = await startOpenAIEmulator('chat');
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
});

const engine = createEngine({ store: memoryStore() });
const record = () => engine.session({ mode: 'record', agent: 'misuse-loop' });

describe('a closed session', () => {
  it('refuses a model call and a tool call with SESSION_MISUSE, and neither reaches the emulator or the tool', async () => {
    anthropic.script([{ kind: 'response', response: textAnswer('hello') }]);
    const session = await record();
    const client = anthropicThrough(session, anthropic.url);
    let called = 0;
    const tool = session.tool('lookup', () => ++called, { readOnly: true });
    await askOnce(client);
    const run = await session.close();
    expect(run.status).toBe('completed');
    const before = anthropic.received().length;
    const model = await failureOf(() => askOnce(client));
    expect(model.code).toBe('SESSION_MISUSE');
    expect(model.message).toMatch(/closed session.*open a new session/);
    const call = await failureOf(() => tool({ q: 1 }));
    expect(call.code).toBe('SESSION_MISUSE');
    expect(anthropic.received().length - before).toBe(0);
    expect(called).toBe(0);
    // What the run holds did not change after its close.
    expect((await engine.getRun(run.runId)).steps).toHaveLength(1);
  });

  it('refuses a second close() with SESSION_MISUSE, and the run stays as the first close wrote it', async () => {
    const session = await record();
    const first = await session.close({ outcome: { done: true } });
    const again = await failureOf(() => session.close({ outcome: { done: false } }));
    expect(again.code).toBe('SESSION_MISUSE');
    expect(again.message).toContain(first.runId);
    expect((await engine.getRun(first.runId)).outcome).toEqual({ done: true });
  });
});

describe('closing with an outcome the run cannot store', () => {
  it('is refused with SESSION_MISUSE and leaves the session open, so a close with one it can store finishes the run', async () => {
    anthropic.script([{ kind: 'response', response: textAnswer('hello') }]);
    const session = await record();
    await askOnce(anthropicThrough(session, anthropic.url));
    for (const outcome of [['a list'], 'text', { at: new Date(0) }, { n: Number.NaN }]) {
      const error = await failureOf(() => session.close({ outcome: outcome as never }));
      expect(error.code).toBe('SESSION_MISUSE');
      expect(error.message).toMatch(/still open: close it again/);
      expect((await engine.getRun(session.runId)).status).toBe('running');
    }
    const run = await session.close({ outcome: { greeting: 'hello' } });
    expect(run.status).toBe('completed');
    expect((await engine.getRun(run.runId)).outcome).toEqual({ greeting: 'hello' });
  });
});

describe('wrapping tools', () => {
  it('refuses one function under two names, and two functions under one name', async () => {
    const session = await record();
    const fn = (input: JsonObject) => input;
    session.tool('first', fn);
    const twice = await failureOf(() => Promise.resolve().then(() => session.tool('second', fn)));
    expect(twice.code).toBe('SESSION_MISUSE');
    expect(twice.message).toMatch(/wrapped as first already/);
    const other = await failureOf(() =>
      Promise.resolve().then(() => session.tool('first', (input: JsonObject) => input)),
    );
    expect(other.code).toBe('SESSION_MISUSE');
    expect(other.message).toMatch(/named first is wrapped already/);
    // The same function under its own name again is the same tool: no error.
    expect(() => session.tool('first', fn)).not.toThrow();
    await session.close();
  });

  it('refuses a tool call with a non-object, and never calls the function', async () => {
    const session = await record();
    let called = 0;
    const tool = session.tool('lookup', () => ++called, { readOnly: true }) as (input: unknown) => Promise<unknown>;
    for (const input of [null, undefined, 'text', 42, [1, 2], true]) {
      const error = await failureOf(() => tool(input));
      expect(error.code).toBe('SESSION_MISUSE');
      expect(error.message).toMatch(/takes one JSON object/);
    }
    expect(called).toBe(0);
    const run = await session.close();
    expect(run.steps).toHaveLength(0);
  });
});

describe('a replay over the wrong recording', () => {
  let recorded = '';
  beforeAll(async () => {
    recorded = await recordClaimRun(engine, anthropic, 'claims-loop');
  });

  it("refuses another loop's recording with AGENT_MISMATCH, naming both loops", async () => {
    const error = await failureOf(() =>
      engine.session({ mode: 'replay:strict', agent: 'refund-loop', source: recorded }),
    );
    expect(error.code).toBe('AGENT_MISMATCH');
    expect(error.message).toContain('claims-loop');
    expect(error.message).toContain('refund-loop');
  });

  it('refuses a run forkpoint drove with AGENT_MISMATCH, pointing at engine.replay', async () => {
    const agent = testAgent();
    const driven = await engine.record({ agent, world: syntheticWorld({ toolCalls: 1 }), input: { task: 1 } });
    for (const mode of ['replay:strict', 'replay:fidelity'] as const) {
      const error = await failureOf(() => engine.session({ mode, agent: agent.name, source: driven.runId }));
      expect(error.code).toBe('AGENT_MISMATCH');
      expect(error.message).toMatch(/driven by forkpoint.*engine\.replay/);
    }
    const fork = await failureOf(() =>
      engine.session({
        mode: 'fork:prefix',
        agent: agent.name,
        source: driven.runId,
        atStep: 2,
        override: { kind: 'tool-result', output: {} },
      }),
    );
    expect(fork.code).toBe('AGENT_MISMATCH');
  });

  it('refuses a cassette of a driven run, or of another loop, read as an object, with AGENT_MISMATCH', async () => {
    const agent = testAgent();
    const driven = await engine.record({ agent, world: syntheticWorld({ toolCalls: 1 }), input: { task: 2 } });
    const drivenCassette = await engine.cassette(driven.runId);
    const fromDriven = await failureOf(() =>
      engine.session({ mode: 'replay:strict', agent: agent.name, source: drivenCassette }),
    );
    expect(fromDriven.code).toBe('AGENT_MISMATCH');
    expect(fromDriven.message).toMatch(/driven by forkpoint/);
    const wrappedCassette = await engine.cassette(recorded);
    const fromOther = await failureOf(() =>
      engine.session({ mode: 'replay:strict', agent: 'refund-loop', source: wrappedCassette }),
    );
    expect(fromOther.code).toBe('AGENT_MISMATCH');
    // The same cassette, by the loop that made it, replays.
    const session = await engine.session({ mode: 'replay:strict', agent: 'claims-loop', source: wrappedCassette });
    const replay = await session.close();
    expect(replay).toMatchObject({ mode: 'replay:strict', sourceRunId: recorded });
  });

  it('refuses a run the store does not hold with RUN_NOT_FOUND', async () => {
    const error = await failureOf(() =>
      engine.session({ mode: 'replay:strict', agent: 'claims-loop', source: 'deadbeef' }),
    );
    expect(error.code).toBe('RUN_NOT_FOUND');
    expect(error.message).toContain('deadbeef');
  });
});

describe('a request the session cannot key', () => {
  it('refuses a model list through the OpenAI fetch with PROVIDER_UNMAPPED, and sends nothing', async () => {
    const session = await record();
    const before = openai.received().length;
    const error = await failureOf(() => openAIThrough(session, openai.url).models.list());
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.message).toMatch(/cannot key GET \/v1\/models.*sent nothing/);
    expect(openai.received().length - before).toBe(0);
    await session.close();
  });

  it('refuses a model list through the Anthropic middleware with PROVIDER_UNMAPPED, and sends nothing', async () => {
    const session = await record();
    const before = anthropic.received().length;
    const error = await failureOf(() => anthropicThrough(session, anthropic.url).models.list());
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(anthropic.received().length - before).toBe(0);
    await session.close();
  });

  it('refuses a GET of the Messages path, and a body that is not JSON, and sends neither', async () => {
    const session = await record();
    const wrapped = session.fetch(fetch);
    const before = anthropic.received().length;
    const get = await failureOf(() => wrapped(`${anthropic.url}/v1/messages`));
    expect(get.code).toBe('PROVIDER_UNMAPPED');
    expect(get.message).toContain('GET /v1/messages');
    for (const body of ['not json', '[1, 2]', '', '"text"']) {
      const error = await failureOf(() =>
        wrapped(`${anthropic.url}/v1/messages`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        }),
      );
      expect(error.code).toBe('PROVIDER_UNMAPPED');
    }
    expect(anthropic.received().length - before).toBe(0);
    const run = await session.close();
    expect(run.steps).toHaveLength(0);
  });
});

describe('a loop that rewrites its history', () => {
  const cases = [
    // The loop trimmed its history: the first user message is gone.
    [
      'drops a message',
      'message 0 differs',
      (content: Anthropic.ContentBlock[]) => [
        { role: 'assistant' as const, content },
        { role: 'user' as const, content: 'What was it?' },
      ],
    ],
    // The loop edited what it said before.
    [
      'edits a message',
      'message 0 differs',
      (content: Anthropic.ContentBlock[]) => [
        { role: 'user' as const, content: 'Remember 8.' },
        { role: 'assistant' as const, content },
        { role: 'user' as const, content: 'What was it?' },
      ],
    ],
  ] as const;
  it.each(cases)(
    'is stopped with SESSION_MISUSE when its second request %s, and that request is not sent',
    async (_what, said, history) => {
      anthropic.script([
        { kind: 'response', response: textAnswer('first') },
        { kind: 'response', response: textAnswer('second') },
      ]);
      const session = await record();
      const client = anthropicThrough(session, anthropic.url);
      const model = 'emulated-claude';
      const first = await client.messages.create({
        model,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Remember 7.' }],
      });
      const before = anthropic.received().length;
      const error = await failureOf(() =>
        client.messages.create({ model, max_tokens: 64, messages: history(first.content) }),
      );
      expect(error.code).toBe('SESSION_MISUSE');
      expect(error.message).toContain('does not continue the conversation');
      expect(error.message).toContain(said);
      expect(anthropic.received().length - before).toBe(0);
      const run = await session.close();
      expect(run.status).toBe('failed');
      expect(run.error?.code).toBe('SESSION_MISUSE');
      expect(run.steps).toHaveLength(1);
    },
  );
});
