export type { AiSdkCallOptions, AiSdkLanguageModel, FromAiSdkOptions } from './ai-sdk-model.js';
export { fromAiSdk } from './from-ai-sdk.js';
// Internal: the session stores, revives and assembles stream parts with them; no package entry exports them yet.
export { revivedGenerateResult, revivedStreamParts, storedGenerateResult, storedStreamParts } from './ai-sdk-stream.js';
export { generateResultOfStreamParts, neutralResultOfStreamParts } from './ai-sdk-stream-result.js';
