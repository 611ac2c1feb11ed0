export type { AnthropicClient, AnthropicMessageBody, FromAnthropicOptions } from './anthropic-client.js';
export { fromAnthropic } from './from-anthropic.js';
