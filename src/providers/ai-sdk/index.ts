export type { AiSdkCallOptions, AiSdkLanguageModel, FromAiSdkOptions } from './ai-sdk-model.js';
export { fromAiSdk } from './from-ai-sdk.js';
