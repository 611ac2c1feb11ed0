import type { ModelResponse, ToolResponse } from '../conversation/index.js';
import { isModelResponse } from '../conversation/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import { assertJsonValue } from '../json/index.js';
import type { World } from '../world/index.js';
import { describeFailure, isTransportFailure } from './transport-failure.js';
import type { Answered, ModelCall, ToolCall, Transport } from './transport.js';

const RESUMABLE =
  'the run stops here with every step before it kept; `forkpoint resume` continues it once the service is back';

/**
 * Answers every request from the live world: the provider samples afresh and
 * tools read the world as it is now. Every answer is marked `live`.
 *
 * A tool that throws, or that the world does not have, answers with an error
 * result the model can see, as a real harness would: `{ error }`, plus
 * `retryable: true` when the thrown error carries that flag (a timeout, say).
 * A backend that cannot be reached (see `isTransportFailure`) observed
 * nothing: the run stops with `TOOL_FAILED`. A provider that refuses a request
 * fails the run with its own code (`PROVIDER_REJECTED`); one that throws
 * anything else (a network error, a 5xx) stops it with `PROVIDER_FAILED`.
 * Either can be resumed. A provider or tool that answers with something that
 * is not plain JSON in the expected shape is a fault of the user's code:
 * `AGENT_CODE_FAILED`. A tool is handed a copy of its input, never the
 * request itself; a provider is handed the request (copying it would cost the
 * whole conversation on every step), which it must leave as it is.
 */
export function liveTransport(world: World): Transport {
  return {
    async model(call: ModelCall): Promise<Answered<ModelResponse>> {
      const where = `${call.kind}#${call.index} (step ${call.step})`;
      let response: unknown;
      try {
        response = await world.model.respond(call.request);
      } catch (error) {
        if (isForkpointError(error)) throw error;
        throw new ForkpointError(
          'PROVIDER_FAILED',
          `the model provider failed at ${where}: ${describeFailure(error)}; ${RESUMABLE}`,
          { cause: error },
        );
      }
      assertJsonValue(response, `the model response to ${where}`, 'AGENT_CODE_FAILED');
      if (!isModelResponse(response)) {
        throw new ForkpointError(
          'AGENT_CODE_FAILED',
          `the model response to ${where} is not in the provider-neutral shape (id, model, content parts, a stopReason forkpoint knows, usage with whole-number token counts); check the world's model provider`,
        );
      }
      return { response, provenance: 'live' };
    },
    async tool(call: ToolCall): Promise<Answered<ToolResponse>> {
      const where = `${call.kind}#${call.index} (step ${call.step})`;
      const handler = world.tools[call.request.tool];
      if (handler === undefined) {
        return {
          response: { output: { error: `unknown tool ${call.request.tool}` }, isError: true },
          provenance: 'live',
        };
      }
      let output: unknown;
      try {
        // A copy: the input is the run's own state (it stands in the model turn that asked), often frozen, and
        // a tool that normalises its input in place would rewrite the conversation, or fail where the record did not.
        output = await handler(structuredClone(call.request.input));
      } catch (error) {
        if (isForkpointError(error, 'INTERNAL')) throw error;
        if (isTransportFailure(error)) {
          throw new ForkpointError(
            'TOOL_FAILED',
            `the backend of ${call.request.tool} could not answer ${where}: ${describeFailure(error)}; ${RESUMABLE}`,
            { cause: error },
          );
        }
        const message = error instanceof Error ? error.message : String(error);
        // A structured flag, not words in the message, so a retry policy reads the same in a structural replay.
        const retryable =
          typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
        return {
          response: { output: retryable ? { error: message, retryable: true } : { error: message }, isError: true },
          provenance: 'live',
        };
      }
      assertJsonValue(output, `the output of ${call.request.tool} at ${where}`, 'AGENT_CODE_FAILED');
      return { response: { output, isError: false }, provenance: 'live' };
    },
  };
}
