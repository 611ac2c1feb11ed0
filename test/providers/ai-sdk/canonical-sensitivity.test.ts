import { describe, expect, it } from 'vitest';
import { canonicalOfAiSdkCall } from '../../../src/providers/ai-sdk/ai-sdk-canonical.js';
import { at, FIXTURE_MODEL, fixtureCall } from './canonical-call-fixture.js';
import { hashOf } from './canonical-support.js';

type Call = Record<string, unknown>;
const hashOfCall = (call: Call, model = FIXTURE_MODEL) => hashOf(canonicalOfAiSdkCall(call, model).request);
const baseHash = hashOfCall(fixtureCall());
const changed = (change: (call: Call) => void): Call => {
  const call = fixtureCall();
  change(call);
  return call;
};
const assistant = (call: Call) => at(call, ['prompt', 2, 'content']);
const toolResult = (call: Call) => at(call, ['prompt', 3, 'content', 0]);

// Every change below changes what the model is asked, so a strict replay must miss on it.
const MODEL_AFFECTING: readonly [string, (call: Call) => void][] = [
  ['the system prompt', (call) => (at(call, ['prompt', 0]).content = 'Be very brief.')],
  ['the first user text', (call) => (at(call, ['prompt', 1, 'content', 0]).text = 'Look b up.')],
  ['the last user text', (call) => (at(call, ['prompt', 4, 'content', 0]).text = 'Stop.')],
  ['an assistant text', (call) => (at(assistant(call), [1]).text = 'Looking now.')],
  ['the reasoning text', (call) => (at(assistant(call), [0]).text = 'Think again.')],
  ["a tool call's input", (call) => (at(assistant(call), [2]).input = { key: 'b' })],
  ["a tool call's tool name", (call) => (at(assistant(call), [2]).toolName = 'fetch')],
  ["a tool result's value", (call) => (toolResult(call).output = { type: 'text', value: 'v-b' })],
  ['a tool result turned error', (call) => (toolResult(call).output = { type: 'error-text', value: 'v-a' })],
  ['a tool result as JSON text', (call) => (toolResult(call).output = { type: 'json', value: 'v-a' })],
  ["a tool result's tool name", (call) => (toolResult(call).toolName = 'fetch')],
  ["a tool result's own options", (call) => (toolResult(call).providerOptions = { acme: { x: 1 } })],
  ["a text part's own options", (call) => (at(assistant(call), [1]).providerOptions = { openai: { itemId: 'i' } })],
  ['a tool call the provider ran', (call) => (at(assistant(call), [2]).providerExecuted = true)],
  [
    'a file part added',
    (call) =>
      (at(call, ['prompt', 1]).content as unknown[]).push({ type: 'file', mediaType: 'image/png', data: 'aGk=' }),
  ],
  [
    'file bytes instead',
    (call) =>
      (at(call, ['prompt', 1]).content as unknown[]).push({
        type: 'file',
        mediaType: 'image/png',
        data: new Uint8Array([1, 2]),
      }),
  ],
  ['an empty user message added', (call) => (call.prompt as unknown[]).push({ role: 'user', content: [] })],
  // One user message of two texts, and two user messages of one text each: the same texts, not the same request.
  [
    'the last user text in two parts',
    (call) =>
      (at(call, ['prompt', 4]).content = [
        { type: 'text', text: 'Go' },
        { type: 'text', text: 'on.' },
      ]),
  ],
  [
    'the last user text in two messages',
    (call) => {
      at(call, ['prompt', 4]).content = [{ type: 'text', text: 'Go' }];
      (call.prompt as unknown[]).push({ role: 'user', content: [{ type: 'text', text: 'on.' }] });
    },
  ],
  ['no system prompt', (call) => (call.prompt as unknown[]).shift()],
  ["a tool's description", (call) => (at(call, ['tools', 0]).description = 'Finds a key.')],
  ["a tool's schema", (call) => (at(call, ['tools', 0]).inputSchema = { type: 'object' })],
  ["a tool's name", (call) => (at(call, ['tools', 0]).name = 'find')],
  ['a tool made strict', (call) => (at(call, ['tools', 0]).strict = true)],
  ['a tool without a description', (call) => delete at(call, ['tools', 0]).description],
  ['a tool with an empty description', (call) => (at(call, ['tools', 0]).description = '')],
  [
    'a provider tool added',
    (call) =>
      (call.tools as unknown[]).push({ type: 'provider', id: 'anthropic.web_search_20250305', name: 'web', args: {} }),
  ],
  ['no tools', (call) => delete call.tools],
  ['temperature', (call) => (call.temperature = 0.3)],
  ['topP', (call) => (call.topP = 0.8)],
  ['topK', (call) => (call.topK = 41)],
  ['maxOutputTokens', (call) => (call.maxOutputTokens = 301)],
  ['maxOutputTokens left to the provider', (call) => delete call.maxOutputTokens],
  ['stopSequences', (call) => (call.stopSequences = ['STOP'])],
  ['seed', (call) => (call.seed = 8)],
  ['presencePenalty', (call) => (call.presencePenalty = 0.5)],
  ['frequencyPenalty', (call) => (call.frequencyPenalty = 0.5)],
  ['responseFormat', (call) => (call.responseFormat = { type: 'text' })],
  ['toolChoice another', (call) => (call.toolChoice = { type: 'tool', toolName: 'lookup' })],
  ['toolChoice left to the default', (call) => delete call.toolChoice],
  ['the anthropic-beta header', (call) => (call.headers = { 'anthropic-beta': 'beta-2' })],
  ['another header', (call) => (call.headers = { 'anthropic-beta': 'beta-1', 'openai-beta': 'assistants=v2' })],
  ['the provider options', (call) => (call.providerOptions = { anthropic: { sendReasoning: false } })],
  [
    'a thinking budget',
    (call) =>
      (call.providerOptions = {
        anthropic: { sendReasoning: true, thinking: { type: 'enabled', budgetTokens: 1024 } },
      }),
  ],
  ['an option a later specification adds', (call) => (call.reasoning = 'high')],
];

// Every change below is named in `leftOut` and changes how the call is made or what it costs, never the answer.
const ANSWER_NEUTRAL: readonly [string, (call: Call) => void, string][] = [
  ['an abort signal', (call) => (call.abortSignal = new AbortController().signal), 'abortSignal'],
  ['raw stream chunks', (call) => (call.includeRawChunks = true), 'includeRawChunks'],
  [
    'another SDK version',
    (call) => (call.headers = { 'anthropic-beta': 'beta-1', 'user-agent': 'ai/6.1.0' }),
    'headers.user-agent',
  ],
  [
    'a credential header',
    (call) => (call.headers = { 'anthropic-beta': 'beta-1', 'X-Api-Key': 'sk-secret' }),
    'headers.x-api-key',
  ],
  ['toolChoice auto when tools are given', (call) => (call.toolChoice = undefined), 'toolChoice'],
  [
    'a cache mark on a message',
    (call) => (at(call, ['prompt', 1]).providerOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } }),
    'providerOptions.anthropic.cacheControl',
  ],
  [
    'a cache mark on a part',
    (call) =>
      (at(call, ['prompt', 4, 'content', 0]).providerOptions = { anthropic: { cache_control: { type: 'ephemeral' } } }),
    'providerOptions.anthropic.cache_control',
  ],
  [
    'a direct caller on a tool call',
    (call) => (at(assistant(call), [2]).providerOptions = { anthropic: { caller: { type: 'direct' } } }),
    'providerOptions.anthropic.caller',
  ],
];

describe('canonicalOfAiSdkCall: the hash sees every option that changes the answer', () => {
  it.each(MODEL_AFFECTING)('changes the hash when %s changes', (_name, change) => {
    expect(hashOfCall(changed(change))).not.toBe(baseHash);
  });

  it('changes the hash when the model changes', () => {
    expect(hashOfCall(fixtureCall(), { ...FIXTURE_MODEL, modelId: 'claude-other' })).not.toBe(baseHash);
  });

  it('tells every model-affecting change apart from every other', () => {
    const hashes = MODEL_AFFECTING.map(([, change]) => hashOfCall(changed(change)));
    expect(new Set(hashes).size).toBe(MODEL_AFFECTING.length);
  });

  it.each(ANSWER_NEUTRAL)('keeps the hash, and names what it left out, for %s', (_name, change, name) => {
    const call = changed(change);
    if (name === 'toolChoice') call.toolChoice = { type: 'auto' };
    const { leftOut } = canonicalOfAiSdkCall(call, FIXTURE_MODEL);
    const withoutTheChange = name === 'toolChoice' ? changed((c) => delete c.toolChoice) : fixtureCall();
    expect(hashOfCall(call)).toBe(hashOfCall(withoutTheChange));
    expect(leftOut).toContain(name);
  });

  it('hashes a signature or a tool call id another run minted as this one, as a driven run hashes them', () => {
    const call = changed((c) => {
      at(assistant(c), [0]).providerOptions = { anthropic: { signature: 'sig-2' } };
      at(assistant(c), [2]).toolCallId = 'toolu_2';
      toolResult(c).toolCallId = 'toolu_2';
    });
    expect(canonicalOfAiSdkCall(call, FIXTURE_MODEL).request).not.toEqual(
      canonicalOfAiSdkCall(fixtureCall(), FIXTURE_MODEL).request,
    );
    expect(hashOfCall(call)).toBe(baseHash);
  });

  it('never keeps a left-out header value, credentials above all', () => {
    const call = changed((c) => (c.headers = { authorization: 'Bearer sk-secret', 'x-api-key': 'sk-secret' }));
    expect(JSON.stringify(canonicalOfAiSdkCall(call, FIXTURE_MODEL))).not.toContain('sk-secret');
  });
});
