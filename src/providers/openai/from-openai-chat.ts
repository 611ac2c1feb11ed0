import type { ModelProvider } from '../../world/index.js';
import { partsLeftOut } from '../left-out.js';
import { chatLeavesOut } from './openai-left-out.js';
import { providerErrorOf } from '../provider-errors.js';
import { chatBodyOf } from './chat-request.js';
import { chatResponseOf } from './chat-response.js';
import type { OpenAIChatClient } from './openai-clients.js';
import { checkChatClient } from './openai-clients.js';
import { OPENAI } from './wire-reading.js';

/**
 * A model provider over OpenAI's Chat Completions API (`client.chat.completions.create`), for a client of the
 * `openai` SDK or of any server that speaks that API. Every call sends the whole conversation, as the API
 * wants, and asks for one non-streamed completion.
 *
 * What maps, both ways (see `chatBodyOf` and `chatResponseOf`): the system prompt as a `system` message, text,
 * tool calls (their arguments string parsed to an object, and refused when it is not one), tool results as
 * `tool` messages, a refusal (stop reason `refusal`), the finish reason, and usage with cached and reasoning
 * tokens. `maxTokens` is sent as `max_completion_tokens`, `stopSequences` as `stop`, and `params.provider.openai`
 * (`reasoning_effort`, `tool_choice`, `seed`, ...) verbatim.
 *
 * What does not: thinking and redacted-thinking parts, which Chat Completions has no way to take, are left out
 * of the request (a run forked from Anthropic to OpenAI holds them); `topK` and a thinking budget are refused
 * (`USAGE`), as OpenAI has neither. An SDK error is `PROVIDER_REJECTED` or `PROVIDER_FAILED` by the one rule of
 * every adapter; a completion that cannot be mapped is `PROVIDER_UNMAPPED`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { fromOpenAIChat } from 'forkpoint/openai';
 * const world = { model: fromOpenAIChat(new OpenAI()), tools };
 * ```
 */
export function fromOpenAIChat(client: OpenAIChatClient): ModelProvider {
  const checked = checkChatClient(client);
  return {
    async respond(request) {
      const body = chatBodyOf(request);
      let completion: unknown;
      try {
        completion = await checked.chat.completions.create(body);
      } catch (error) {
        throw providerErrorOf(OPENAI, error);
      }
      return chatResponseOf(completion);
    },
    leavesOut: (request) => partsLeftOut(request, chatLeavesOut),
  };
}
