import type { ModelRequest, ModelResponse } from '../../conversation/index.js';
import { partsLeftOut } from '../left-out.js';
import { aiSdkLeavesOut } from './ai-sdk-provider-parts.js';
import type { ModelProvider } from '../../world/index.js';
import { notAClient, providerErrorOf } from '../provider-errors.js';
import type { AiSdkLanguageModel, FromAiSdkOptions } from './ai-sdk-model.js';
import { isAiSdkModel } from './ai-sdk-model.js';
import { callOptionsOf } from './ai-sdk-prompt.js';
import { neutralResultOf } from './ai-sdk-result.js';
import { withRetries } from './ai-sdk-retry.js';

/**
 * A model provider over an AI SDK language model (the LanguageModel
 * specification v2 or v3: `openai('gpt-5')`, `anthropic('claude-...')`, any
 * provider's): each neutral request is one `doGenerate` call, retried as
 * `generateText` retries it. The neutral request becomes the specification's
 * prompt, tools and settings; its content, finish reason and usage come back
 * neutral, reasoning with its signature kept, and a part the neutral shape has
 * no kind for kept verbatim as a `provider` part. A failed call is
 * `PROVIDER_REJECTED` (a 4xx it would refuse again) or `PROVIDER_FAILED`
 * (network, 429, 5xx: a resume continues the run); a result it cannot map is
 * `PROVIDER_UNMAPPED`.
 *
 * @example
 * ```ts
 * import { createAnthropic } from '@ai-sdk/anthropic';
 * import { fromAiSdk } from 'forkpoint/ai-sdk';
 * const world = { model: fromAiSdk(createAnthropic()('claude-sonnet-4-5')), tools: { lookup } };
 * await engine.record({ agent, world, input });
 * ```
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: FromAiSdkOptions = {}): ModelProvider {
  // Checked at run time too: a v4 model (ai 7), or any other object, gets a typed error, not a wrong call.
  if (!isAiSdkModel(model))
    throw notAClient('fromAiSdk', 'an AI SDK language model of specification v2 or v3 (model.doGenerate)');
  const maxRetries = options.maxRetries ?? 2;
  return {
    respond: async (request: ModelRequest): Promise<ModelResponse> => {
      const call = callOptionsOf(request, model);
      let result: unknown;
      try {
        result = await withRetries(() => model.doGenerate(call), maxRetries);
      } catch (error) {
        throw providerErrorOf(model.provider, error);
      }
      return neutralResultOf(model, result);
    },
    leavesOut: (request) => partsLeftOut(request, aiSdkLeavesOut(model.provider)),
  };
}
