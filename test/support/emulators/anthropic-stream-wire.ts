import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonArray, isJsonObject } from '../../../src/json/index.js';
import { piecesOf, sseEventText } from './sse-writing.js';

// Written from the Messages API's streaming format (message_start, content_block_start/delta/stop, message_delta,
// message_stop, ping), not from forkpoint's assembler: the events the API sends for a message it would have
// answered whole.

/** The events of one content block at `index`: its start, its deltas (text in 3 pieces, tool input in 4), its stop. */
function blockEvents(block: JsonObject, index: number): JsonObject[] {
  const delta = (fields: JsonObject): JsonObject => ({ type: 'content_block_delta', index, delta: fields });
  const start = (content: JsonObject): JsonObject => ({ type: 'content_block_start', index, content_block: content });
  const stop: JsonObject = { type: 'content_block_stop', index };
  if (block.type === 'text' && typeof block.text === 'string') {
    const { citations, text, ...rest } = block;
    // Citations arrive one delta each, before the text they cite.
    const cited = isJsonArray(citations) ? citations : [];
    return [
      start({ ...rest, text: '' }),
      ...cited.map((citation) => delta({ type: 'citations_delta', citation })),
      ...piecesOf(text, 3).map((piece) => delta({ type: 'text_delta', text: piece })),
      stop,
    ];
  }
  if (block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string')
    return [
      start({ type: 'thinking', thinking: '', signature: '' }),
      ...piecesOf(block.thinking, 2).map((piece) => delta({ type: 'thinking_delta', thinking: piece })),
      delta({ type: 'signature_delta', signature: block.signature }),
      stop,
    ];
  // A tool call (the harness's or a server tool's) starts with an empty input; its JSON text follows in pieces.
  if (isJsonObject(block.input))
    return [
      start({ ...block, input: {} }),
      ...piecesOf(JSON.stringify(block.input), 4).map((piece) =>
        delta({ type: 'input_json_delta', partial_json: piece }),
      ),
      stop,
    ];
  return [start(block), stop];
}

/**
 * The events the Messages API streams for `message` (a `Message` as it answers without streaming), in order:
 * `message_start` with no content, no stop reason and one output token so far; a `ping`; each block's events;
 * `message_delta` with the stop reason and the usage totals; `message_stop`.
 */
export function anthropicEventsOf(message: JsonObject): JsonObject[] {
  const { content, stop_reason: stopReason, stop_sequence: stopSequence, usage, ...rest } = message;
  const blocks = isJsonArray(content) ? content.filter(isJsonObject) : [];
  const totals: JsonValue = isJsonObject(usage) ? usage : {};
  return [
    {
      type: 'message_start',
      message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: { ...totals, output_tokens: 1 } },
    },
    { type: 'ping' },
    ...blocks.flatMap(blockEvents),
    {
      type: 'message_delta',
      // The API's delta names every field it may set, `null` for none.
      delta: { stop_reason: stopReason ?? null, stop_sequence: stopSequence ?? null, stop_details: null },
      usage: totals,
    },
    { type: 'message_stop' },
  ];
}

/** {@link anthropicEventsOf} as the SSE text the API sends: each event named by its type. */
export const anthropicSseOf = (message: JsonObject): string =>
  anthropicEventsOf(message)
    .map((event) => sseEventText(event, typeof event.type === 'string' ? event.type : undefined))
    .join('');
