import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenAIChatClient, OpenAIResponsesClient } from '../../../src/providers/index.js';
import type { ProviderEmulator, ProviderSubject } from '../../../src/testing/index.js';
import { fromOpenAIChat, fromOpenAIResponses } from '../../../src/providers/index.js';
import { openAIChatSubject, openAIResponsesSubject } from '../../support/emulators/openai-emulator.js';
import { finalTurn } from '../../support/test-agents.js';
import { thrown } from '../../support/thrown.js';
import { rejection, requestOf, userText } from './openai-fixtures.js';

const SUBJECTS: readonly (readonly [string, ProviderSubject])[] = [
  ['fromOpenAIChat', openAIChatSubject],
  ['fromOpenAIResponses', openAIResponsesSubject],
];
const request = requestOf([userText('hi')]);

describe.each(SUBJECTS)('%s: errors of the real SDK', (_name, subject) => {
  let emulator: ProviderEmulator;
  beforeEach(async () => {
    emulator = await subject.start();
  });
  afterEach(async () => {
    await emulator.close();
  });

  it("makes a 400 PROVIDER_REJECTED with OpenAI's own message, asked once", async () => {
    emulator.script([{ kind: 'error', status: 400, message: "Unsupported parameter: 'temperature'." }]);
    const error = await rejection(subject.provider(emulator.url, { maxRetries: 2 }).respond(request));
    expect(error.code).toBe('PROVIDER_REJECTED');
    expect(error.message).toBe("openai rejected the request (400): 400 Unsupported parameter: 'temperature'.");
    expect(emulator.received()).toHaveLength(1);
  });

  it("answers after a 429, through the SDK's own retry: the same request asked twice", async () => {
    emulator.script([
      { kind: 'error', status: 429, message: 'Rate limit reached.' },
      { kind: 'response', response: finalTurn('after the wait') },
    ]);
    const response = await subject.provider(emulator.url, { maxRetries: 1 }).respond(request);
    expect(response.content).toContainEqual({ type: 'text', text: 'after the wait' });
    expect(emulator.received()).toHaveLength(2);
    expect(emulator.received()[1]).toEqual(emulator.received()[0]);
  });

  it('makes a 429 with no retry left PROVIDER_FAILED, which a resume continues', async () => {
    emulator.script([{ kind: 'error', status: 429, message: 'Rate limit reached.' }]);
    const error = await rejection(subject.provider(emulator.url, { maxRetries: 0 }).respond(request));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toMatch(/failed \(429\)/);
  });

  it('makes a 500 PROVIDER_FAILED', async () => {
    emulator.script([{ kind: 'error', status: 500, message: 'The server had an error.' }]);
    const error = await rejection(subject.provider(emulator.url, { maxRetries: 0 }).respond(request));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toBe('openai failed (500): 500 The server had an error.');
  });

  it('makes a dropped connection PROVIDER_FAILED: the provider could not be reached', async () => {
    emulator.script([{ kind: 'drop' }]);
    const error = await rejection(subject.provider(emulator.url, { maxRetries: 0 }).respond(request));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toMatch(/^openai could not be reached: Connection error/);
    expect(emulator.received()).toHaveLength(1);
  });
});

describe('an object that is not an OpenAI client', () => {
  // What a user gets past the type checker (a JavaScript caller, a cast): a client of the wrong SDK, say.
  const chatless: unknown = { chat: {} };
  const responseless: unknown = { responses: null };

  it.each([
    ['fromOpenAIChat', () => fromOpenAIChat(chatless as OpenAIChatClient), /chat\.completions\.create/],
    ['fromOpenAIResponses', () => fromOpenAIResponses(responseless as OpenAIResponsesClient), /responses\.create/],
  ])('is refused by %s with USAGE, naming the method it lacks', (_name, make, method) => {
    const error = thrown(make);
    expect(error.code).toBe('USAGE');
    expect(error.message).toMatch(method);
  });
});
