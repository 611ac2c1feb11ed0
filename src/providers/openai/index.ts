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
// Internal: the session assembles a recorded event stream with them; no package entry exports them yet.
export { chatCompletionOfSse, chatResponseOfSse } from './chat-stream.js';
