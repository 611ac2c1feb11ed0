import type { ModelParams } from '../../conversation/index.js';
import type { JsonObject } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';

/** A call's provider options, with the thinking budget the forward mapping writes there taken out as params. */
export interface LiftedThinking {
  /** What is left of the provider options: absent when nothing is. */
  readonly providerOptions?: JsonObject;
  readonly thinking?: ModelParams['thinking'];
}

const isAnthropic = (provider: string): boolean => provider === 'anthropic' || provider.startsWith('anthropic.');

/**
 * The inverse of the forward mapping's thinking budget (ai-sdk-prompt.ts
 * `sizeOf`): for an Anthropic model, `providerOptions.anthropic.thinking` of
 * exactly `{ type: 'enabled', budgetTokens }` is `params.thinking`, when the
 * call sets `maxOutputTokens` (the caller adds the budget to it, as the
 * provider does). Any other thinking option (adaptive, another provider's,
 * one beside a default `maxOutputTokens`) stays in the provider options
 * verbatim.
 */
export function liftThinking(providerOptions: JsonObject, provider: string, maxTokens: number): LiftedThinking {
  const { anthropic, ...others } = providerOptions;
  const thinking = isJsonObject(anthropic) ? anthropic.thinking : undefined;
  const budget = isJsonObject(thinking) && Object.keys(thinking).length === 2 ? thinking.budgetTokens : undefined;
  const liftable =
    isAnthropic(provider) &&
    maxTokens > 0 &&
    isJsonObject(thinking) &&
    thinking.type === 'enabled' &&
    typeof budget === 'number' &&
    Number.isInteger(budget) &&
    budget > 0;
  if (!liftable || !isJsonObject(anthropic)) return nonEmpty(providerOptions);
  const { thinking: _lifted, ...rest } = anthropic;
  const left = Object.keys(rest).length === 0 ? others : { ...others, anthropic: rest };
  return { ...nonEmpty(left), thinking: { budgetTokens: budget } };
}

const nonEmpty = (options: JsonObject): LiftedThinking =>
  Object.keys(options).length === 0 ? {} : { providerOptions: options };
