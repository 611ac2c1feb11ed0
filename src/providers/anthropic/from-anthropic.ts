import type { ModelRequest, ModelResponse } from '../../conversation/index.js';
import type { ModelProvider } from '../../world/index.js';
import { notAClient, providerErrorOf } from '../provider-errors.js';
import type { AnthropicClient, FromAnthropicOptions } from './anthropic-client.js';
import { isAnthropicClient } from './anthropic-client.js';
import { ANTHROPIC, anthropicBodyOf, anthropicLeavesOut } from './anthropic-request.js';
import { partsLeftOut } from '../left-out.js';
import { neutralResponseOf } from './anthropic-response.js';

/**
 * A model provider over your own Anthropic SDK client: each neutral request
 * is one `client.messages.create` call (non-streaming), with the client's own
 * base URL, headers, retries and timeout. The request and the `Message` are
 * mapped both ways with nothing dropped (a block kind the neutral shape lacks
 * is kept verbatim as a `provider` part and sent back so); an SDK error is
 * `PROVIDER_REJECTED` (a 4xx it would refuse again) or `PROVIDER_FAILED`
 * (network, 429, 5xx: a resume continues the run); a response it cannot map
 * is `PROVIDER_UNMAPPED`.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { fromAnthropic } from 'forkpoint/anthropic';
 * const world = { model: fromAnthropic(new Anthropic()), tools: { lookup } };
 * await engine.record({ agent, world, input });
 * ```
 */
export function fromAnthropic(client: AnthropicClient, options: FromAnthropicOptions = {}): ModelProvider {
  // Checked at run time too: a caller from plain JavaScript, or with a cast, gets a typed error, not a TypeError.
  if (!isAnthropicClient(client)) throw notAClient('fromAnthropic', 'an Anthropic SDK client (client.messages.create)');
  return {
    respond: async (request: ModelRequest): Promise<ModelResponse> => {
      const body = anthropicBodyOf(request, options);
      let message: unknown;
      try {
        message = await client.messages.create(body);
      } catch (error) {
        throw providerErrorOf(ANTHROPIC, error);
      }
      return neutralResponseOf(message);
    },
    leavesOut: (request) => partsLeftOut(request, anthropicLeavesOut),
  };
}
