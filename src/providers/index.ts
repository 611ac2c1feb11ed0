export { notAClient, providerErrorOf, unmappedResponse } from './provider-errors.js';
export {
  fromAnthropic,
  type AnthropicClient,
  type AnthropicMessageBody,
  type FromAnthropicOptions,
} from './anthropic/index.js';
export { fromAiSdk, type AiSdkCallOptions, type AiSdkLanguageModel, type FromAiSdkOptions } from './ai-sdk/index.js';
export { routeModels } from './route-models.js';
