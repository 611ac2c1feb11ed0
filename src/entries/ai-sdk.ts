/**
 * `forkpoint/ai-sdk`: a model provider over any AI SDK provider's language
 * model (the LanguageModel specification v2 or v3, as `ai` 5 and 6 use; `ai`
 * is an optional peer dependency, never imported by forkpoint: the model is
 * typed by what the adapter calls on it).
 *
 * @example
 * ```ts
 * import { createAnthropic } from '@ai-sdk/anthropic';
 * import { fromAiSdk } from 'forkpoint/ai-sdk';
 * const world = { model: fromAiSdk(createAnthropic()('claude-sonnet-4-5')), tools: { lookup } };
 * ```
 */
export {
  fromAiSdk,
  type AiSdkCallOptions,
  type AiSdkLanguageModel,
  type FromAiSdkOptions,
} from '../providers/index.js';
