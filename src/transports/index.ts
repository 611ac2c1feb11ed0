export { firewalledTransport, type FirewallOptions } from './firewalled-transport.js';
export { liveTransport } from './live-transport.js';
export { overrideTransport, type InjectedAnswer, type OverrideOptions } from './override-transport.js';
export {
  replayingTransport,
  type FidelityReplayOptions,
  type ReplayingTransport,
  type RequestKey,
  type RequestKeys,
  type StrictReplayOptions,
} from './replaying-transport.js';
export type { Answered, ApprovalCall, CallPosition, ModelCall, ToolCall, Transport } from './transport.js';
