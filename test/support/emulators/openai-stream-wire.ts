import type { JsonObject } from '../../../src/json/index.js';
import { isJsonArray, isJsonObject } from '../../../src/json/index.js';
import { piecesOf, sseEventText } from './sse-writing.js';

// Written from Chat Completions' streaming format (chat.completion.chunk objects as `data:` events, then
// `data: [DONE]`), not from forkpoint's assembler: the chunks the API sends for a completion it would have
// answered whole.

/**
 * The chunks Chat Completions streams for `completion` (one choice, as the API answers without streaming): a
 * first delta with the role, the content (in 3 pieces) or the refusal, each tool call (its id, type and name
 * first, with empty arguments, then the arguments in 3 pieces), a last delta with the finish reason, and, when
 * the request asked for `stream_options.include_usage`, a chunk with no choices and the usage (every chunk
 * before it then says `usage: null`). Every chunk carries the completion's id, model and fingerprint, and an
 * `obfuscation` padding of its own, as the API sends it.
 */
export function chatChunksOf(completion: JsonObject, includeUsage: boolean): JsonObject[] {
  const { choices, usage, object: _object, ...base } = completion;
  const [choice] = isJsonArray(choices) ? choices.filter(isJsonObject) : [];
  const message = isJsonObject(choice?.message) ? choice.message : {};
  let padding = 0;
  const chunk = (fields: JsonObject): JsonObject => ({
    ...base,
    object: 'chat.completion.chunk',
    ...fields,
    ...(includeUsage && fields.usage === undefined ? { usage: null } : {}),
    obfuscation: 'x'.repeat(++padding % 7),
  });
  const delta = (fields: JsonObject, finish: string | null = null): JsonObject =>
    chunk({ choices: [{ index: 0, delta: fields, logprobs: null, finish_reason: finish }] });
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const calls = isJsonArray(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
  return [
    delta({ role: 'assistant', content: message.content === null ? null : '', refusal: null }),
    ...piecesOf(text(message.content), 3).map((piece) => delta({ content: piece })),
    ...piecesOf(text(message.refusal), 3).map((piece) => delta({ refusal: piece })),
    ...calls.flatMap((call, index) => {
      const fn = isJsonObject(call.function) ? call.function : {};
      return [
        delta({
          tool_calls: [
            { index, id: call.id ?? null, type: 'function', function: { name: fn.name ?? null, arguments: '' } },
          ],
        }),
        ...piecesOf(text(fn.arguments), 3).map((piece) =>
          delta({ tool_calls: [{ index, function: { arguments: piece } }] }),
        ),
      ];
    }),
    delta({}, typeof choice?.finish_reason === 'string' ? choice.finish_reason : 'stop'),
    ...(includeUsage && usage !== undefined ? [chunk({ choices: [], usage })] : []),
  ];
}

/** {@link chatChunksOf} as the SSE text the API sends: each chunk a `data:` event, then `data: [DONE]`. */
export const chatSseOf = (completion: JsonObject, includeUsage: boolean): string =>
  [...chatChunksOf(completion, includeUsage).map((chunk) => sseEventText(chunk)), sseEventText('[DONE]')].join('');
