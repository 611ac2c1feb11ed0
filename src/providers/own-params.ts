import type { ModelParams } from '../conversation/index.js';
import type { JsonObject } from '../json/index.js';

/**
 * The parameters a request holds for one provider: `params.provider[name]`,
 * in that provider's own words, or none. Each adapter reads its own entry and
 * no other, so a build that sets Anthropic's `cache_control` and OpenAI's
 * `reasoning_effort` serves both, and a fork that moves a run to another
 * provider's model keeps the request it was (`--model`).
 */
export const ownParams = (params: ModelParams, name: string): JsonObject => params.provider?.[name] ?? {};
