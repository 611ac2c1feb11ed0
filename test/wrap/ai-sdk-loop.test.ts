import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { aiSdkClaimLoop } from './support/ai-sdk-claim-loop.js';
import { describeWrappedLoop } from './support/wrapped-loop-cases.js';

describeWrappedLoop({
  name: "the AI SDK's generateText with tools and a stop condition (wrapLanguageModel)",
  start: startAnthropicEmulator,
  run: aiSdkClaimLoop,
  sdkMinted: maskSdkMinted,
});

// `streamText` names each step's response with an id of its own (`aitxt-...`) and stamps it with its own clock
// when the provider's stream gives no timestamp (Anthropic's does not): neither comes from the stream.
function maskSdkMinted(event: unknown): unknown {
  return JSON.parse(
    JSON.stringify(event, (key, value: unknown) =>
      (key === 'id' && typeof value === 'string' && value.startsWith('aitxt-')) || key === 'timestamp'
        ? '(minted by the SDK)'
        : value,
    ),
  );
}
