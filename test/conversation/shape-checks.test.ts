import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { STOP_REASONS, isMessagePart, isModelParams, isModelResponse } from '../../src/conversation/index.js';

const response = (overrides: Record<string, JsonValue> = {}): JsonValue => ({
  id: 'msg_1',
  model: 'claude-opus-5',
  content: [{ type: 'text', text: 'done' }],
  stopReason: 'end_turn',
  usage: { inputTokens: 10, outputTokens: 2 },
  ...overrides,
});

describe('the provider-neutral shape of what arrives from outside', () => {
  it('takes every stop reason it names, and refuses one it does not', () => {
    for (const stopReason of STOP_REASONS) expect(isModelResponse(response({ stopReason })), stopReason).toBe(true);
    expect(isModelResponse(response({ stopReason: 'paused' }))).toBe(false);
    expect(isModelResponse(response({ stopReason: 'other', providerStopReason: 'guardrail' }))).toBe(true);
    expect(isModelResponse(response({ providerStopReason: 7 }))).toBe(false);
  });

  it('takes the normalised token counts and the provider’s own usage, and refuses a count that is not a whole number', () => {
    const usage = {
      inputTokens: 10,
      outputTokens: 2,
      cacheReadTokens: 4096,
      cacheWriteTokens: 0,
      reasoningTokens: 1,
      provider: { input_tokens: 10, cache_read_input_tokens: 4096 },
    };
    expect(isModelResponse(response({ usage }))).toBe(true);
    expect(isModelResponse(response({ usage: { ...usage, cacheReadTokens: 1.5 } }))).toBe(false);
    expect(isModelResponse(response({ usage: { ...usage, reasoningTokens: -1 } }))).toBe(false);
    expect(isModelResponse(response({ usage: { ...usage, provider: 'raw' } }))).toBe(false);
    expect(isModelResponse(response({ usage: { inputTokens: 10 } }))).toBe(false);
  });

  it('takes redacted reasoning, a provider’s own block and cited text, each in its one shape', () => {
    expect(isMessagePart({ type: 'redacted_thinking', data: 'EuYB' })).toBe(true);
    expect(isMessagePart({ type: 'redacted_thinking' })).toBe(false);
    expect(isMessagePart({ type: 'provider', provider: 'anthropic', block: { type: 'server_tool_use' } })).toBe(true);
    expect(isMessagePart({ type: 'provider', provider: 'anthropic', block: 'x' })).toBe(false);
    expect(isMessagePart({ type: 'text', text: 'a', citations: [{ type: 'char_location' }] })).toBe(true);
    expect(isMessagePart({ type: 'text', text: 'a', citations: ['page 2'] })).toBe(false);
    expect(isMessagePart({ type: 'image', source: {} })).toBe(false);
  });

  it('takes stop sequences, a thinking budget and the provider’s own parameters', () => {
    expect(isModelParams({ maxTokens: 1, stopSequences: ['END'], thinking: { budgetTokens: 1024 } })).toBe(true);
    expect(isModelParams({ maxTokens: 1, provider: { anthropic: { tool_choice: { type: 'any' } } } })).toBe(true);
    expect(isModelParams({ maxTokens: 1, provider: { tool_choice: 'any' } })).toBe(false);
    expect(isModelParams({ maxTokens: 1, stopSequences: [1] })).toBe(false);
    expect(isModelParams({ maxTokens: 1, thinking: { budget: 1 } })).toBe(false);
    expect(isModelParams({ maxTokens: 1, provider: [] })).toBe(false);
  });
});
