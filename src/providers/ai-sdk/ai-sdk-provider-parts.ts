import type { MessagePart, ProviderPart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';

/**
 * A content part of a result the neutral shape has no kind for (reasoning
 * with another provider's metadata, a file, a tool call the provider ran
 * itself and its result, a source, an approval request, a kind a later
 * specification adds), kept verbatim, under the model's provider.
 */
export const providerPartOf = (provider: string, content: JsonObject): ProviderPart => ({
  type: 'provider',
  provider,
  block: content,
});

/** True for a part a model of `provider` cannot take: another provider's own part. */
export const aiSdkLeavesOut =
  (provider: string) =>
  (part: MessagePart): boolean =>
    part.type === 'provider' && part.provider !== provider;

/**
 * What a kept content part goes back as in the next prompt, the way `ai`'s own
 * loop sends a step's content back (generate-text/to-response-messages.ts):
 * its metadata as the part's `providerOptions`, a tool call's input parsed, a
 * provider-run tool's result as its output; a source, which no provider
 * expects back, and any kind the prompt has no part for, are left out.
 */
export function promptPartsOfProviderPart(part: ProviderPart, provider: string): JsonObject[] {
  // Another provider's own part (from a run forked from it) is no part of this prompt: the rule `leavesOut` reports.
  if (aiSdkLeavesOut(provider)(part)) return [];
  const { providerMetadata, ...content } = part.block;
  const options = providerMetadata === undefined ? {} : { providerOptions: providerMetadata };
  switch (content.type) {
    case 'reasoning':
    case 'file':
      return [{ ...content, ...options }];
    case 'tool-call':
      return [{ ...content, input: parsedInput(content.input), ...options }];
    case 'tool-result': {
      const { result, isError, preliminary: _preliminary, ...call } = content;
      const output = { type: isError === true ? 'error-json' : 'json', value: result ?? null };
      return [{ ...call, output, ...options }];
    }
    default:
      return [];
  }
}

/** A tool call's input as the prompt takes it: the object its JSON text says, or the text itself if it says none. */
function parsedInput(input: JsonValue | undefined): JsonValue {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return input;
  }
}
