export { notAClient, providerErrorOf, unmappedResponse } from './provider-errors.js';
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
