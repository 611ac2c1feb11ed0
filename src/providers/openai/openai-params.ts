import type { ModelParams } from '../../conversation/index.js';
import type { JsonObject } from '../../json/index.js';
import { ForkpointError } from '../../errors/index.js';
import { ownParams } from '../own-params.js';
import { OPENAI } from './wire-reading.js';

/** Which of OpenAI's two APIs a request is for: they take different parameters. */
export type OpenAIApi = 'chat' | 'responses';

const ADAPTER: Record<OpenAIApi, string> = { chat: 'fromOpenAIChat', responses: 'fromOpenAIResponses' };

// What each adapter writes itself, so `params.provider.openai` may not: the conversation, the tools, and (for the
// Responses API) the statelessness a replay and a fork stand on. A stream would answer with events, not the one
// object the adapter reads.
const OWNED: Record<OpenAIApi, readonly string[]> = {
  chat: ['model', 'messages', 'tools', 'stream'],
  responses: ['model', 'input', 'instructions', 'tools', 'stream', 'store', 'previous_response_id', 'conversation'],
};

function refuse(api: OpenAIApi, message: string): ForkpointError {
  return new ForkpointError('USAGE', `${ADAPTER[api]}: ${message}`);
}

/**
 * The sampling parameters both APIs share, in OpenAI's names, each only when set; and a refusal (`USAGE`) of
 * what OpenAI cannot take, rather than a request that silently means less than it says:
 * - `topK`: no OpenAI API samples by top-k;
 * - `thinking.budgetTokens`: OpenAI's reasoning models take an effort, not a budget (`reasoning_effort` for Chat
 *   Completions, `reasoning: { effort }` for Responses, both through `params.provider.openai`);
 * - `stopSequences`, for the Responses API, which has no stop parameter (Chat Completions sends them as `stop`).
 */
export function samplingOf(params: ModelParams, api: OpenAIApi): JsonObject {
  if (params.topK !== undefined)
    throw refuse(api, `params.topK (${params.topK}) is set, and OpenAI does not sample by top-k: leave it unset`);
  if (params.thinking !== undefined)
    throw refuse(
      api,
      `params.thinking (a budget of ${params.thinking.budgetTokens} tokens) is set, and OpenAI takes a reasoning effort, not a budget: set ${api === 'chat' ? 'reasoning_effort' : 'reasoning: { effort }'} in params.provider.openai instead`,
    );
  const stop = params.stopSequences ?? [];
  if (api === 'responses' && stop.length > 0)
    throw refuse(api, 'params.stopSequences is set, and the Responses API has no stop sequences: use fromOpenAIChat');
  return {
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.topP === undefined ? {} : { top_p: params.topP }),
    ...(stop.length === 0 ? {} : { stop }),
  };
}

/**
 * `params.provider.openai`, to be spread last into the body (what it names, it sets), once it is known to name nothing
 * the adapter writes itself: such a key is refused (`USAGE`), naming it.
 */
export function providerParamsOf(params: ModelParams, api: OpenAIApi): JsonObject {
  const provider = ownParams(params, OPENAI);
  const owned = OWNED[api].filter((key) => key in provider);
  if (owned.length > 0)
    throw refuse(
      api,
      `params.provider.openai sets ${owned.join(', ')}, which the adapter writes itself${api === 'responses' ? ' (it is stateless: store: false, and the whole conversation on every call, so that a replay and a fork need nothing kept on the server)' : ''}`,
    );
  return provider;
}
