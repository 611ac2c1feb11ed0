import type { ModelResponse, ToolResponse } from '../conversation/index.js';
import { isForkpointError } from '../errors/index.js';
import { assertJsonValue } from '../json/index.js';
import type { World } from '../world/index.js';
import type { Answered, ModelCall, ToolCall, Transport } from './transport.js';

/**
 * Answers every request from the live world: the provider samples afresh and
 * tools read the world as it is now. Every answer is marked `live`.
 *
 * A tool that throws, or that the world does not have, answers with an error
 * result the model can see, as a real harness would: `{ error }`, plus
 * `retryable: true` when the thrown error carries that flag (a timeout, say).
 * A provider that refuses a request fails the run.
 */
export function liveTransport(world: World): Transport {
  return {
    async model(call: ModelCall): Promise<Answered<ModelResponse>> {
      const response = await world.model.respond(call.request);
      assertJsonValue(response, `the model response to ${call.kind}#${call.index}`, 'INTERNAL');
      return { response, provenance: 'live' };
    },
    async tool(call: ToolCall): Promise<Answered<ToolResponse>> {
      const handler = world.tools[call.request.tool];
      if (handler === undefined) {
        return { response: { output: { error: `unknown tool ${call.request.tool}` }, isError: true }, provenance: 'live' };
      }
      try {
        const output = await handler(call.request.input);
        assertJsonValue(output, `the output of ${call.kind}#${call.index}`, 'INTERNAL');
        return { response: { output, isError: false }, provenance: 'live' };
      } catch (error) {
        if (isForkpointError(error, 'INTERNAL')) throw error;
        const message = error instanceof Error ? error.message : String(error);
        // A structured flag, not words in the message, so a retry policy reads the same in a structural replay.
        const retryable = typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
        return { response: { output: retryable ? { error: message, retryable: true } : { error: message }, isError: true }, provenance: 'live' };
      }
    },
  };
}
