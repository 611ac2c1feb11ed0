export { fromOpenAIChat } from './from-openai-chat.js';
export { fromOpenAIResponses } from './from-openai-responses.js';
export type {
  ChatCompletionBody,
  ChatMessage,
  ChatToolCall,
  OpenAIChatClient,
  OpenAIResponsesClient,
  ResponsesBody,
} from './openai-clients.js';
