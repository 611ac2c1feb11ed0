import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { fromAiSdk, fromAnthropic } from '../../../src/providers/index.js';
import type { ProviderSubject } from '../../../src/testing/index.js';
import { startAnthropicEmulator } from './anthropic-emulator.js';

/**
 * The model id the subjects ask for. Not a Claude family @ai-sdk/anthropic
 * knows (`claude-` in the id), whose capability table would rewrite the
 * request (drop sampling parameters, cap `max_tokens`) before it reaches the wire.
 */
export const EMULATED_MODEL = 'emulated-claude';

/** fromAnthropic over the real Anthropic SDK, pointed at the emulator (the SDK adds `/v1/messages`). */
export const anthropicSubject: ProviderSubject = {
  start: startAnthropicEmulator,
  provider: (url, { maxRetries }) => fromAnthropic(new Anthropic({ apiKey: 'test-key', baseURL: url, maxRetries })),
  model: EMULATED_MODEL,
  supports: { thinking: true, refusal: true },
};

/** fromAiSdk over @ai-sdk/anthropic's model, pointed at the same emulator (its base URL includes `/v1`). */
export const aiSdkAnthropicSubject: ProviderSubject = {
  start: startAnthropicEmulator,
  provider: (url, { maxRetries }) =>
    fromAiSdk(createAnthropic({ baseURL: `${url}/v1`, apiKey: 'test-key' })(EMULATED_MODEL), { maxRetries }),
  model: EMULATED_MODEL,
  supports: { thinking: true, refusal: true },
};
