import type { TokenCounts } from '../pricing/index.js';
import type { Provenance } from '../vocabulary/index.js';
import { FORKPOINT, GEN_AI } from './semconv.js';

/** Attribute values as a span holds them. */
export type SpanAttributes = Record<string, string | number | boolean | readonly string[]>;

/**
 * The usage attributes of one model step. Only a `live` call was paid for, so
 * only a live call carries `gen_ai.usage.*`: a backend that prices spans from
 * those (Langfuse does) would otherwise count a replay's recorded usage as
 * spend that never happened. Any other provenance (recorded, inherited,
 * override) carries the same counts under `forkpoint.recorded_usage.*`.
 *
 * Input tokens follow the conventions' Anthropic rule, which forkpoint's
 * normalised usage needs for every provider: its `input` excludes what was
 * read from or written to the prompt cache, and `gen_ai.usage.input_tokens`
 * counts all input, so the three are summed.
 */
export function usageAttributes(provenance: Provenance | null, tokens: TokenCounts): SpanAttributes {
  const input = tokens.input + tokens.cacheRead + tokens.cacheWrite;
  if (provenance === 'live') {
    return {
      [GEN_AI.usageInputTokens]: input,
      [GEN_AI.usageOutputTokens]: tokens.output,
      [GEN_AI.usageCacheReadInputTokens]: tokens.cacheRead,
      [GEN_AI.usageCacheCreationInputTokens]: tokens.cacheWrite,
      ...(tokens.reasoning > 0 ? { [GEN_AI.usageReasoningOutputTokens]: tokens.reasoning } : {}),
    };
  }
  return {
    [FORKPOINT.recordedInputTokens]: input,
    [FORKPOINT.recordedOutputTokens]: tokens.output,
    [FORKPOINT.recordedCacheReadInputTokens]: tokens.cacheRead,
    [FORKPOINT.recordedCacheCreationInputTokens]: tokens.cacheWrite,
    ...(tokens.reasoning > 0 ? { [FORKPOINT.recordedReasoningOutputTokens]: tokens.reasoning } : {}),
  };
}
