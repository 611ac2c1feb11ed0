import type { Usage } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { countAt, objectAt, OPENAI } from './wire-reading.js';

/** The names one OpenAI API gives its usage counts: Chat Completions says prompt/completion, Responses input/output. */
export interface UsageNames {
  readonly input: string;
  readonly output: string;
}

/** Chat Completions' names. */
export const CHAT_USAGE: UsageNames = { input: 'prompt_tokens', output: 'completion_tokens' };
/** The Responses API's names. */
export const RESPONSES_USAGE: UsageNames = { input: 'input_tokens', output: 'output_tokens' };

/**
 * OpenAI's usage in the neutral form. Both APIs count every input token in the input count, cached or not:
 * `*_tokens_details.cached_tokens` (read from the prompt cache) and `cache_write_tokens` (written to it) are
 * parts of it. The neutral `inputTokens` is the input billed at the input rate, so both are taken out of it and
 * reported as `cacheReadTokens` and `cacheWriteTokens`. Reasoning tokens are a part of the output count, as the
 * neutral `outputTokens` counts them too: `outputTokens` is the output count as it is, and `reasoningTokens` the
 * part of it that was reasoning. A count the provider did not report stays absent; the usage object itself is
 * kept verbatim as `provider`.
 */
export function usageOf(value: JsonValue | undefined, names: UsageNames): Usage {
  const usage = objectAt(value, 'usage');
  const total = countAt(usage[names.input], `usage.${names.input}`);
  const output = countAt(usage[names.output], `usage.${names.output}`);
  if (total === undefined || output === undefined)
    throw unmappedResponse(OPENAI, 'usage', usage, `it has no ${names.input} or no ${names.output}`);
  const inputDetails = detailsOf(usage, `${names.input}_details`);
  const outputDetails = detailsOf(usage, `${names.output}_details`);
  const cacheRead = countAt(inputDetails.cached_tokens, `usage.${names.input}_details.cached_tokens`);
  const cacheWrite = countAt(inputDetails.cache_write_tokens, `usage.${names.input}_details.cache_write_tokens`);
  const reasoning = countAt(outputDetails.reasoning_tokens, `usage.${names.output}_details.reasoning_tokens`);
  const uncached = total - (cacheRead ?? 0) - (cacheWrite ?? 0);
  if (uncached < 0)
    throw unmappedResponse(
      OPENAI,
      'usage',
      usage,
      `its cached tokens are more than its ${names.input}, which include them`,
    );
  if (reasoning !== undefined && reasoning > output)
    throw unmappedResponse(
      OPENAI,
      'usage',
      usage,
      `its reasoning tokens are more than its ${names.output}, which include them`,
    );
  return {
    inputTokens: uncached,
    outputTokens: output,
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    provider: usage,
  };
}

// A details object is optional in Chat Completions' types, and absent from what some compatible servers send.
function detailsOf(usage: JsonObject, name: string): JsonObject {
  const details = usage[name];
  if (details === undefined || details === null) return {};
  if (!isJsonObject(details)) throw unmappedResponse(OPENAI, `usage.${name}`, details, 'it is not an object');
  return details;
}
