import { chatLeavesOut } from './openai-left-out.js';
import type { Message, ModelRequest, TextPart } from '../../conversation/index.js';
import type { ChatCompletionBody, ChatMessage, ChatToolCall } from './openai-clients.js';
import { providerParamsOf, samplingOf } from './openai-params.js';
import { resultText } from './wire-reading.js';

/**
 * A neutral request as the body of `POST /chat/completions`:
 * - the system prompt as a `system` message, none when it is empty: the SDK's types suggest `developer` for
 *   o1 and newer models, but `system` is the role every Chat Completions server takes, the compatible servers
 *   this API is often used with included, and the Responses adapter is the one for OpenAI's newest models;
 * - user text as a `user` message; tool results as `tool` messages (`tool_call_id`, the content a string as it
 *   is and any other JSON as its text), sent before the turn's text, as the API wants them right after the
 *   assistant message that asked;
 * - assistant text and tool calls (`tool_calls[].function.arguments` the input's JSON text), and the id of an
 *   audio answer (`audio: { id }`) kept from an earlier response;
 * - tools as `{ type: 'function', function: { name, description, parameters } }`, none when there are none;
 * - `max_completion_tokens` (which counts reasoning tokens too), temperature, top_p and `stop` when set, then
 *   `params.provider.openai` verbatim.
 *
 * Chat Completions cannot carry reasoning of another provider's: thinking and redacted-thinking parts (a run
 * forked from Anthropic to OpenAI holds them) and any provider part but OpenAI's own audio are left out of
 * the request, which is the only way the API takes such a conversation at all.
 */
export function chatBodyOf(request: ModelRequest): ChatCompletionBody {
  const sampling = samplingOf(request.params, 'chat');
  const provider = providerParamsOf(request.params, 'chat');
  const messages: ChatMessage[] = request.system === '' ? [] : [{ role: 'system', content: request.system }];
  for (const message of request.messages)
    messages.push(...(message.role === 'user' ? userMessages(message) : [assistantMessage(message)]));
  const tools = request.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
  return {
    model: request.model,
    messages,
    // The API refuses an empty list of tools: none is said by leaving it out.
    ...(tools.length === 0 ? {} : { tools }),
    max_completion_tokens: request.params.maxTokens,
    ...sampling,
    ...provider,
  };
}

function userMessages(message: Message): ChatMessage[] {
  const results: ChatMessage[] = [];
  const texts: TextPart[] = [];
  for (const part of message.content) {
    // The tool result says in its content whether it is an error (the engine writes `{ error }`): the API has
    // no flag for it.
    if (part.type === 'tool_result')
      results.push({ role: 'tool', tool_call_id: part.toolUseId, content: resultText(part.content) });
    else if (part.type === 'text') texts.push(part);
  }
  return texts.length === 0 ? results : [...results, { role: 'user', content: textContent(texts) }];
}

function assistantMessage(message: Message): ChatMessage {
  const texts: TextPart[] = [];
  const toolCalls: ChatToolCall[] = [];
  let audio: { id: string } | undefined;
  // What the API cannot take is left out by the one rule `leavesOut` reports (chatLeavesOut).
  for (const part of message.content.filter((candidate) => !chatLeavesOut(candidate))) {
    if (part.type === 'text') texts.push(part);
    else if (part.type === 'tool_use')
      toolCalls.push({
        id: part.id,
        type: 'function',
        function: { name: part.name, arguments: JSON.stringify(part.input) },
      });
    else if (part.type === 'provider') {
      // The one provider part chatLeavesOut keeps: an earlier audio answer, back by its id, the one field the API takes.
      if (typeof part.block.id === 'string') audio = { id: part.block.id };
    }
  }
  return {
    role: 'assistant',
    // A turn with nothing the API can carry (reasoning only) stays a turn, with empty text.
    content: texts.length > 0 ? textContent(texts) : toolCalls.length > 0 || audio !== undefined ? null : '',
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(audio === undefined ? {} : { audio }),
  };
}

// One text as a string, several as the API's list of text parts, so that none is merged into another.
function textContent(texts: readonly TextPart[]): string | { type: 'text'; text: string }[] {
  const [only] = texts;
  if (texts.length === 1 && only !== undefined) return only.text;
  return texts.map((part) => ({ type: 'text', text: part.text }));
}
