export type { AnthropicClient, AnthropicMessageBody, FromAnthropicOptions } from './anthropic-client.js';
export { fromAnthropic } from './from-anthropic.js';
// Internal: the session assembles a recorded event stream with them; no package entry exports them yet.
export { anthropicMessageOfSse, neutralResponseOfAnthropicSse } from './anthropic-stream.js';
