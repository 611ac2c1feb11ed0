export { liveTransport } from './live-transport.js';
export type { Answered, CallPosition, ModelCall, ToolCall, Transport } from './transport.js';
