import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, generateText, wrapLanguageModel } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { EmulatedAnswer, ProviderEmulator } from '../../src/testing/index.js';
import type { Session } from '../../src/wrap/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { startOpenAIEmulator } from '../support/emulators/openai-emulator.js';
import { LOOP_MODEL } from './support/claim-world.js';
import { anthropicThrough, askOnce, openAIThrough, textAnswer } from './support/session-fixtures.js';

/** One SDK's way of making one model call through a session, and the error class it throws for a 400. */
interface RetryingSdk {
  readonly name: string;
  readonly start: () => Promise<ProviderEmulator>;
  /** One call with the SDK's own retries (`maxRetries`); gives the answer's text. */
  readonly ask: (session: Session, url: string, maxRetries: number) => Promise<string>;
  readonly isOwnError: (error: unknown) => boolean;
}

const SDKS: readonly RetryingSdk[] = [
  {
    name: 'the Anthropic SDK (middleware)',
    start: startAnthropicEmulator,
    ask: async (session, url, maxRetries) => {
      const message = await askOnce(anthropicThrough(session, url, { maxRetries }));
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
    isOwnError: (error) => error instanceof Anthropic.BadRequestError,
  },
  {
    name: 'the OpenAI SDK (fetch)',
    start: () => startOpenAIEmulator('chat'),
    ask: async (session, url, maxRetries) => {
      const completion = await openAIThrough(session, url, { maxRetries }).chat.completions.create({
        model: LOOP_MODEL,
        messages: [{ role: 'user', content: 'Say hello.' }],
      });
      return completion.choices[0]?.message.content ?? '';
    },
    isOwnError: (error) => error instanceof OpenAI.BadRequestError,
  },
  {
    name: "the AI SDK's generateText (wrapLanguageModel)",
    start: startAnthropicEmulator,
    ask: async (session, url, maxRetries) => {
      const model = wrapLanguageModel({
        model: createAnthropic({ baseURL: `${url}/v1`, apiKey: 'test-key' })(LOOP_MODEL),
        middleware: session.aiSdk(),
      });
      return (await generateText({ model, prompt: 'Say hello.', maxRetries, maxOutputTokens: 64 })).text;
    },
    isOwnError: (error) => APICallError.isInstance(error) && error.statusCode === 400,
  },
];

// The SDK retries inside one logical call: the session sees every attempt, keys the call once by the answer that
// came, and stores no failed attempt, so the step is model#0 (not model#1) and a strict replay serves it whole.
describe.each(SDKS)('retries inside $name', (sdk) => {
  let emulator: ProviderEmulator;
  beforeAll(async () => {
    emulator = await sdk.start();
  });
  afterAll(async () => {
    await emulator.close();
  });
  const engine = createEngine({ store: memoryStore() });
  const agent = `retrying-loop (${sdk.name})`;

  const recordAfter = async (failure: EmulatedAnswer) => {
    emulator.script([failure, { kind: 'response', response: textAnswer('hello after a retry') }]);
    const before = emulator.received().length;
    const session = await engine.session({ mode: 'record', agent });
    const text = await sdk.ask(session, emulator.url, 2);
    const run = await session.close();
    return { text, run, requests: emulator.received().length - before };
  };

  const replayStrictly = async (runId: string) => {
    const before = emulator.received().length;
    const session = await engine.session({ mode: 'replay:strict', agent, source: runId });
    const text = await sdk.ask(session, emulator.url, 2);
    const run = await session.close();
    return { text, run, requests: emulator.received().length - before };
  };

  for (const [what, failure] of [
    ['a 429', { kind: 'error', status: 429, message: 'slow down' }],
    ['a dropped connection', { kind: 'drop' }],
  ] as const) {
    it(`keys ${what} then the answer as one step, model#0, and replays it with no request`, async () => {
      const recorded = await recordAfter(failure);
      expect(recorded.text).toBe('hello after a retry');
      expect(recorded.requests).toBe(2);
      expect(recorded.run.status).toBe('completed');
      expect(recorded.run.steps.map((step) => ({ step: step.step, kind: step.kind, index: step.index }))).toEqual([
        { step: 1, kind: 'model', index: 0 },
      ]);
      const replay = await replayStrictly(recorded.run.runId);
      expect(replay.text).toBe('hello after a retry');
      expect(replay.requests).toBe(0);
      expect(replay.run.status).toBe('completed');
      expect(replay.run.steps.map((step) => [step.kind, step.index, step.requestHash])).toEqual(
        recorded.run.steps.map((step) => [step.kind, step.index, step.requestHash]),
      );
    });
  }

  it('gives every attempt back when the retries run out: no step, and the next call is model#0', async () => {
    const busy = { kind: 'error', status: 429, message: 'slow down' } as const;
    emulator.script([busy, busy, busy, { kind: 'response', response: textAnswer('hello at last') }]);
    const before = emulator.received().length;
    const session = await engine.session({ mode: 'record', agent });
    const exhausted = await sdk.ask(session, emulator.url, 2).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(exhausted).toBeInstanceOf(Error);
    expect(emulator.received().length - before).toBe(3);
    // The loop catches it and asks again, as loops do: the same logical call, at the same position.
    expect(await sdk.ask(session, emulator.url, 0)).toBe('hello at last');
    const run = await session.close();
    expect(run.status).toBe('completed');
    expect(run.steps.map((step) => `${step.kind}#${step.index} (step ${step.step})`)).toEqual(['model#0 (step 1)']);
  });

  it("surfaces a 400 as the SDK's own error, with no step", async () => {
    emulator.script([{ kind: 'error', status: 400, message: 'max_tokens is too large' }]);
    const before = emulator.received().length;
    const session = await engine.session({ mode: 'record', agent });
    const thrown = await sdk.ask(session, emulator.url, 2).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(sdk.isOwnError(thrown)).toBe(true);
    // Not retried: a 400 is the request's fault.
    expect(emulator.received().length - before).toBe(1);
    const run = await session.close({ error: thrown });
    expect(run.steps).toHaveLength(0);
    expect(run.status).toBe('failed');
  });
});
