import type { ToolResponse } from '../conversation/index.js';
import type { Answered, ToolCall, Transport } from './transport.js';

/** Options of {@link overrideTransport}. */
export interface OverrideOptions {
  /** The step whose tool result is replaced. */
  readonly step: number;
  /** The result the fork injects there. */
  readonly response: ToolResponse;
  /** Where every other answer comes from. */
  readonly live: Transport;
}

/**
 * A fork's transport: the tool result at the fork step is the injected one,
 * marked `override`; every other request goes to the live world.
 */
export function overrideTransport(options: OverrideOptions): Transport {
  return {
    model: (call) => options.live.model(call),
    async tool(call: ToolCall): Promise<Answered<ToolResponse>> {
      if (call.step !== options.step) return options.live.tool(call);
      return { response: structuredClone(options.response), provenance: 'override' };
    },
  };
}
