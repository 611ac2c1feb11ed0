import type { ModelResponse, ToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { Answered, ModelCall, ToolCall, Transport } from '../transports/index.js';

/** A model call of a wrapped loop, with the way to ask the live world: its SDK's own request. */
export interface LiveModelCall extends ModelCall {
  readonly live?: () => Promise<ModelResponse>;
}

/** A tool call of a wrapped loop, with the way to make it for real: the loop's own tool function. */
export interface LiveToolCall extends ToolCall {
  readonly live?: () => Promise<ToolResponse>;
}

/**
 * The live world of a wrapped loop: each call carries its own way to go
 * live (the SDK's request, the tool function), and this transport takes it.
 * Transports pass a call on as they got it, so whatever a mode composes
 * around this one (a replay falling back, a firewall, a fork's override)
 * reaches it with the call intact. A call that carries no way to go live (a
 * strict session never gives one) cannot be answered here: that is a bug.
 */
export function wrappedLiveTransport(): Transport {
  return {
    async model(call: LiveModelCall): Promise<Answered<ModelResponse>> {
      if (call.live === undefined) throw noLive(call);
      return { response: await call.live(), provenance: 'live' };
    },
    async tool(call: LiveToolCall): Promise<Answered<ToolResponse>> {
      if (call.live === undefined) throw noLive(call);
      return { response: await call.live(), provenance: 'live' };
    },
  };
}

const noLive = (call: ModelCall | ToolCall): ForkpointError =>
  new ForkpointError(
    'INTERNAL',
    `${call.kind}#${call.index} (step ${call.step}) reached the live world without a way to go live`,
  );
