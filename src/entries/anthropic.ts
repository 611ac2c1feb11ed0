/**
 * `forkpoint/anthropic`: a model provider over your own Anthropic SDK client
 * (`@anthropic-ai/sdk`, an optional peer dependency, never imported by
 * forkpoint: the client is typed by what the adapter calls on it).
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { fromAnthropic } from 'forkpoint/anthropic';
 * const world = { model: fromAnthropic(new Anthropic()), tools: { lookup } };
 * ```
 */
export {
  fromAnthropic,
  type AnthropicClient,
  type AnthropicMessageBody,
  type FromAnthropicOptions,
} from '../providers/index.js';
