import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';

/**
 * The prompt-caching marks a part or message may carry, by provider: where
 * the provider may start reading its cache (@ai-sdk/anthropic's
 * `cacheControl`, also read as `cache_control`; @ai-sdk/amazon-bedrock's
 * `cachePoint`). A mark changes what a call costs, never what the model
 * answers (the cached prefix is the same text), so it stays out of the
 * canonical request, as the cross-cutting rule for every adapter says
 * (sdk-integration-notes §7.4), and a run that adds caching still replays.
 */
const CACHE_MARKS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['cacheControl', 'cache_control'],
  bedrock: ['cachePoint'],
};

/**
 * `providerOptions` without its cache marks, each provider's entry that held
 * nothing else left out, and the name of each mark taken out added to
 * `leftOut` (`providerOptions.anthropic.cacheControl`).
 */
export function withoutCacheMarks(providerOptions: JsonObject, leftOut: Set<string>): JsonObject {
  const kept: Record<string, JsonValue> = {};
  for (const [provider, options] of Object.entries(providerOptions)) {
    const marks = CACHE_MARKS[provider] ?? [];
    if (!isJsonObject(options) || !marks.some((mark) => mark in options)) {
      kept[provider] = options;
      continue;
    }
    const rest = Object.fromEntries(Object.entries(options).filter(([name]) => !marks.includes(name)));
    for (const mark of marks) if (mark in options) leftOut.add(`providerOptions.${provider}.${mark}`);
    if (Object.keys(rest).length > 0) kept[provider] = rest;
  }
  return kept;
}
