import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { aiSdkClaimLoop } from './support/ai-sdk-claim-loop.js';
import { describeWrappedLoop } from './support/wrapped-loop-cases.js';

describeWrappedLoop({
  name: "the AI SDK's generateText with tools and a stop condition (wrapLanguageModel)",
  start: startAnthropicEmulator,
  run: aiSdkClaimLoop,
});
