export { notAClient, providerErrorOf, unmappedResponse } from './provider-errors.js';
export {
  fromAnthropic,
  type AnthropicClient,
  type AnthropicMessageBody,
  type FromAnthropicOptions,
} from './anthropic/index.js';
export { fromAiSdk, type AiSdkCallOptions, type AiSdkLanguageModel, type FromAiSdkOptions } from './ai-sdk/index.js';
export {
  fromOpenAIChat,
  fromOpenAIResponses,
  type ChatCompletionBody,
  type ChatMessage,
  type ChatToolCall,
  type OpenAIChatClient,
  type OpenAIResponsesClient,
  type ResponsesBody,
} from './openai/index.js';
export { routeModels } from './route-models.js';

// The inverse mappings: an SDK's own request as forkpoint's canonical one, for a session wrapping a loop.
export { neutralRequestOfAnthropicBody } from './anthropic/anthropic-canonical.js';
export { neutralResponseOf } from './anthropic/anthropic-response.js';
export { chatCanonicalOf } from './openai/chat-canonical.js';
export { chatResponseOf } from './openai/chat-response.js';
export { canonicalOfAiSdkCall, type AiSdkModelIdentity } from './ai-sdk/ai-sdk-canonical.js';
export { neutralResultOf } from './ai-sdk/ai-sdk-result.js';
// Internal, for the session's streamed calls: no package entry exports these yet.
export { parseSseText, type SseEvent } from './sse-events.js';
export { anthropicMessageOfSse, neutralResponseOfAnthropicSse } from './anthropic/index.js';
export { chatCompletionOfSse, chatResponseOfSse } from './openai/index.js';
export {
  generateResultOfStreamParts,
  neutralResultOfStreamParts,
  revivedGenerateResult,
  revivedStreamParts,
  storedGenerateResult,
  storedStreamParts,
} from './ai-sdk/index.js';
