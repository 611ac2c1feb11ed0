import type { ModelProvider } from '../../world/index.js';
import { partsLeftOut } from '../left-out.js';
import { responsesLeaveOut } from './openai-left-out.js';
import { providerErrorOf } from '../provider-errors.js';
import type { OpenAIResponsesClient } from './openai-clients.js';
import { checkResponsesClient } from './openai-clients.js';
import { responsesBodyOf } from './responses-request.js';
import { responsesResponseOf } from './responses-response.js';
import { OPENAI } from './wire-reading.js';

/**
 * A model provider over OpenAI's Responses API (`client.responses.create`), stateless on purpose: every call
 * sends `store: false` and the whole conversation as `input`, never a `previous_response_id`, so that a
 * recorded prefix replays and forks with nothing kept on OpenAI's side; it asks for
 * `reasoning.encrypted_content`, so that reasoning items can be sent back.
 *
 * What maps, both ways (see `responsesBodyOf`, `responsesResponseOf` and `partsOfItem`): the system prompt as
 * `instructions`, text, function calls (a tool-use part whose id is the `call_id`, the arguments string parsed
 * to an object and refused when it is not one) and their outputs, a refusal (stop reason `refusal`), the
 * status and its incomplete reason, and usage with cached and reasoning tokens. The rest of a message or
 * function-call item (its own `id`, `status`, `phase`), a reasoning item and any item of a kind the adapter
 * does not know are kept verbatim as OpenAI provider parts, and sent back as they came. `maxTokens` is sent as
 * `max_output_tokens`, and `params.provider.openai` (`reasoning`, `tool_choice`, `text`, ...) verbatim.
 *
 * What does not: thinking and redacted-thinking parts (a run forked from Anthropic to OpenAI holds them) are
 * left out of the request; `topK`, a thinking budget and stop sequences are refused (`USAGE`), as the Responses
 * API has none of them; so is a `params.provider.openai` that would make the call stateful or streamed. An SDK error
 * is `PROVIDER_REJECTED` or `PROVIDER_FAILED` by the one rule of every adapter; a response that cannot be
 * mapped is `PROVIDER_UNMAPPED`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { fromOpenAIResponses } from 'forkpoint/openai';
 * const world = { model: fromOpenAIResponses(new OpenAI()), tools };
 * ```
 */
export function fromOpenAIResponses(client: OpenAIResponsesClient): ModelProvider {
  const checked = checkResponsesClient(client);
  return {
    async respond(request) {
      const body = responsesBodyOf(request);
      let response: unknown;
      try {
        response = await checked.responses.create(body);
      } catch (error) {
        throw providerErrorOf(OPENAI, error);
      }
      return responsesResponseOf(response);
    },
    leavesOut: (request) => partsLeftOut(request, responsesLeaveOut),
  };
}
