/**
 * `forkpoint/openai`: model providers over the `openai` SDK's client, one for each of OpenAI's APIs. Neither
 * imports the SDK (an optional peer): each takes any client with the one method it calls.
 * - `fromOpenAIResponses(client)`: the Responses API, stateless (`store: false`, the whole conversation on
 *   every call), reasoning items sent back verbatim;
 * - `fromOpenAIChat(client)`: Chat Completions, for OpenAI and the servers that speak its API.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { fromOpenAIResponses } from 'forkpoint/openai';
 * const world = { model: fromOpenAIResponses(new OpenAI()), tools };
 * ```
 */
export {
  fromOpenAIChat,
  fromOpenAIResponses,
  type ChatCompletionBody,
  type ChatMessage,
  type ChatToolCall,
  type OpenAIChatClient,
  type OpenAIResponsesClient,
  type ResponsesBody,
} from '../providers/index.js';
