import type { ModelResponse, StopReason, Usage } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { neutralPartsOf, plainJsonOf } from './ai-sdk-content.js';
import type { AiSdkLanguageModel } from './ai-sdk-model.js';

/**
 * The neutral response of a `doGenerate` result, v2 or v3: its content, why
 * it finished, and its usage. The specification's response id and model id
 * are kept when the provider gave them (the model's own id otherwise; a
 * provider that names no response has the empty id).
 */
export function neutralResultOf(model: AiSdkLanguageModel, result: unknown): ModelResponse {
  const { provider } = model;
  if (typeof result !== 'object' || result === null)
    throw unmappedResponse(provider, 'a result', result, 'it is not an object');
  const { content, finishReason, usage, response } = result as { readonly [key: string]: unknown };
  const metadata = typeof response === 'object' && response !== null ? (response as { [key: string]: unknown }) : {};
  return {
    id: typeof metadata.id === 'string' ? metadata.id : '',
    model: typeof metadata.modelId === 'string' ? metadata.modelId : model.modelId,
    content: neutralPartsOf(provider, content),
    ...stopReasonOf(provider, plainJsonOf(provider, 'a finishReason', finishReason ?? null)),
    usage: usageOf(model, plainJsonOf(provider, 'a usage', usage ?? null)),
  };
}

type Stop = { stopReason: StopReason; providerStopReason?: string };

const UNIFIED: Readonly<Record<string, StopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_use',
};

/**
 * The provider's own words a unified finish reason stands for that the
 * neutral shape names apart (@ai-sdk/anthropic's map-anthropic-stop-reason.ts
 * folds `pause_turn` and `stop_sequence` into `stop`, `refusal` into
 * `content-filter`, `model_context_window_exceeded` into `length`): a raw
 * reason refines its unified one only within that family.
 */
const REFINED: Readonly<Record<string, Readonly<Record<string, StopReason>>>> = {
  stop: { end_turn: 'end_turn', stop_sequence: 'stop_sequence', pause_turn: 'pause_turn' },
  length: {
    max_tokens: 'max_tokens',
    context_window_exceeded: 'context_window_exceeded',
    model_context_window_exceeded: 'context_window_exceeded',
  },
  'content-filter': { refusal: 'refusal', content_filter: 'content_filter' },
};

/**
 * The neutral stop reason of a finish reason: v3's `{ unified, raw }` (the
 * raw reason kept beside it where it says something the neutral name does
 * not), or v2's unified string; `error`, `other` and v2's `unknown` are
 * `other`, with the provider's word, or the unified one if it gave none.
 */
function stopReasonOf(provider: string, finishReason: JsonValue): Stop {
  const unified = isJsonObject(finishReason) ? finishReason.unified : finishReason;
  const raw = isJsonObject(finishReason) && typeof finishReason.raw === 'string' ? finishReason.raw : undefined;
  if (typeof unified !== 'string')
    throw unmappedResponse(provider, 'a finishReason', finishReason, 'it names no reason');
  const stopReason = (raw === undefined ? undefined : REFINED[unified]?.[raw]) ?? UNIFIED[unified] ?? 'other';
  const providerStopReason = raw ?? (stopReason === 'other' ? unified : undefined);
  return providerStopReason === undefined || providerStopReason === stopReason
    ? { stopReason }
    : { stopReason, providerStopReason };
}

/**
 * The neutral usage of v3's (input split into uncached, cache read and cache
 * write; output with its reasoning; the provider's own object as `raw`) or
 * v2's (`inputTokens` the whole input, `cachedInputTokens` the part read from
 * a cache, kept whole under `provider` since v2 has no raw). A count the
 * provider did not report stays absent; an input or output count it did not
 * report is 0, the neutral usage having no absent one.
 */
function usageOf(model: AiSdkLanguageModel, usage: JsonValue): Usage {
  if (!isJsonObject(usage)) throw unmappedResponse(model.provider, 'a usage', usage, 'it is not an object');
  return model.specificationVersion === 'v2' ? usageOfV2(model.provider, usage) : usageOfV3(model.provider, usage);
}

function usageOfV3(provider: string, usage: JsonObject): Usage {
  const { inputTokens, outputTokens, raw } = usage;
  const input = isJsonObject(inputTokens) ? inputTokens : {};
  const output = isJsonObject(outputTokens) ? outputTokens : {};
  const count = (counts: JsonObject, name: string) => countOf(provider, usage, counts[name]);
  const [total, noCache, cacheRead, cacheWrite] = ['total', 'noCache', 'cacheRead', 'cacheWrite'].map((name) =>
    count(input, name),
  );
  const uncached = noCache ?? (total === undefined ? 0 : total - (cacheRead ?? 0) - (cacheWrite ?? 0));
  const reasoning = count(output, 'reasoning');
  return {
    inputTokens: Math.max(0, uncached),
    outputTokens: count(output, 'total') ?? (count(output, 'text') ?? 0) + (reasoning ?? 0),
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    ...(isJsonObject(raw) ? { provider: raw } : {}),
  };
}

function usageOfV2(provider: string, usage: JsonObject): Usage {
  const [input, output, cached, reasoning] = [
    'inputTokens',
    'outputTokens',
    'cachedInputTokens',
    'reasoningTokens',
  ].map((name) => countOf(provider, usage, usage[name]));
  return {
    inputTokens: Math.max(0, (input ?? 0) - (cached ?? 0)),
    outputTokens: output ?? 0,
    ...(cached === undefined ? {} : { cacheReadTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    provider: usage,
  };
}

function countOf(provider: string, usage: JsonObject, value: JsonValue | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw unmappedResponse(provider, 'a usage', usage, `${JSON.stringify(value)} is not a token count`);
  return value;
}
