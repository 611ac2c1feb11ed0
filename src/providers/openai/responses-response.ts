import type { MessagePart, ModelResponse, StopReason } from '../../conversation/index.js';
import type { JsonObject } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';
import { ForkpointError } from '../../errors/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { RESPONSES_USAGE, usageOf } from './openai-usage.js';
import { partsOfItem } from './responses-items.js';
import { arrayAt, jsonOf, OPENAI, stringAt } from './wire-reading.js';

const INCOMPLETE_REASONS: Readonly<Record<string, StopReason>> = {
  max_output_tokens: 'max_tokens',
  content_filter: 'content_filter',
};

/**
 * A response object in the neutral shape: its `output` items, in order, as `partsOfItem` maps them (the SDK's
 * added `output_text` is not read: it is the message items' text again). The stop reason comes from `status`:
 * - `completed` (or no status): `refusal` when a message refuses, `tool_use` when there is a function call,
 *   `end_turn` otherwise;
 * - `incomplete`: by `incomplete_details.reason`, max_output_tokens → max_tokens, content_filter →
 *   content_filter, anything else → other with `providerStopReason` saying it;
 * - `failed`: the response's own `error`, as `PROVIDER_FAILED` (a resume asks again);
 * - `queued`, `in_progress`, `cancelled` belong to background responses, which the adapter never asks for.
 * Usage is read as `usageOf` reads it: `input_tokens` includes the cached tokens, `output_tokens` the reasoning.
 */
export function responsesResponseOf(raw: unknown): ModelResponse {
  const response = jsonOf(raw, 'the response');
  const content: MessagePart[] = [];
  let refused = false;
  arrayAt(response.output, 'output').forEach((item, i) => {
    const mapped = partsOfItem(item, `output[${i}]`);
    content.push(...mapped.parts);
    refused ||= mapped.refused;
  });
  const stop = stopOf(
    response,
    refused,
    content.some((part) => part.type === 'tool_use'),
  );
  return {
    id: stringAt(response.id, 'id'),
    model: stringAt(response.model, 'model'),
    content,
    ...stop,
    usage: usageOf(response.usage, RESPONSES_USAGE),
  };
}

function stopOf(
  response: JsonObject,
  refused: boolean,
  calls: boolean,
): { stopReason: StopReason; providerStopReason?: string } {
  const status = response.status ?? 'completed';
  if (status === 'completed') return { stopReason: refused ? 'refusal' : calls ? 'tool_use' : 'end_turn' };
  if (status === 'incomplete') {
    const details = response.incomplete_details;
    const reason = isJsonObject(details) && typeof details.reason === 'string' ? details.reason : 'incomplete';
    const mapped = INCOMPLETE_REASONS[reason];
    return mapped === undefined ? { stopReason: 'other', providerStopReason: reason } : { stopReason: mapped };
  }
  if (status === 'failed') {
    const error = isJsonObject(response.error) ? response.error : {};
    const code = typeof error.code === 'string' ? error.code : 'no code';
    const message = typeof error.message === 'string' ? error.message : 'no message';
    throw new ForkpointError('PROVIDER_FAILED', `${OPENAI} failed the response (${code}): ${message}`, {
      details: { field: 'error', data: response.error ?? null },
    });
  }
  throw unmappedResponse(OPENAI, 'status', status, 'a response the adapter reads is completed, incomplete or failed');
}
