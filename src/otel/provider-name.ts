import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

// The GenAI conventions' well-known `gen_ai.provider.name` values forkpoint can tell apart.
const WIRE_PROVIDERS: Readonly<Record<string, string>> = { anthropic: 'anthropic', 'openai-chat': 'openai' };
const MODEL_PROVIDERS: readonly (readonly [RegExp, string])[] = [
  [/^claude/, 'anthropic'],
  [/^(gpt-|o\d|chatgpt|text-embedding)/, 'openai'],
  [/^gemini/, 'gcp.gemini'],
  [/^(mistral|mixtral|codestral)/, 'mistral_ai'],
  [/^command/, 'cohere'],
];

/**
 * The `gen_ai.provider.name` of a model step. A stored step does not name
 * its provider, so it is read from what does: a wrapped SDK's wire format
 * (`anthropic`, `openai-chat`), else the model id's family (`claude-*` is
 * Anthropic's, `gpt-*` OpenAI's, ...); `fallback` (the caller's, default
 * `unknown`) when neither says.
 */
export function providerNameOf(response: JsonValue, model: string, fallback: string): string {
  const wire = isJsonObject(response) && isJsonObject(response.wire) ? response.wire.format : undefined;
  if (typeof wire === 'string' && WIRE_PROVIDERS[wire] !== undefined) return WIRE_PROVIDERS[wire];
  const family = MODEL_PROVIDERS.find(([pattern]) => pattern.test(model.toLowerCase()));
  return family?.[1] ?? fallback;
}
