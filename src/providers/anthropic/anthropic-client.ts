import type { JsonObject } from '../../json/index.js';

/**
 * The body of `POST /v1/messages` as this adapter writes it: the three fields
 * the API requires, and the rest in the API's own names. Typed loosely on
 * purpose: the SDK's own parameter type is assignable to it, so any client of
 * `@anthropic-ai/sdk` (0.x or 1.x) fits {@link AnthropicClient} without the
 * adapter importing the SDK.
 */
export interface AnthropicMessageBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly unknown[];
}

/**
 * What {@link fromAnthropic} needs of an Anthropic SDK client: `messages.create`,
 * which posts a body to `/v1/messages` and resolves to the `Message` it got
 * back (the SDK's own retries, timeouts and errors in between).
 */
export interface AnthropicClient {
  readonly messages: {
    create(body: AnthropicMessageBody): PromiseLike<unknown>;
  };
}

/**
 * What {@link fromAnthropic} adds to every request, outside the request hash:
 * only what says who asks, never what is asked.
 */
export interface FromAnthropicOptions {
  /**
   * The API's `metadata` (e.g. `{ user_id }`, an opaque id of your end user),
   * sent with every request whose `params.provider.anthropic` sets no `metadata` of its
   * own. It names who asks, not what is asked, so it stays out of the request
   * hash: a replay of the run matches whoever recorded it.
   */
  readonly metadata?: JsonObject;
}

/** True for an object with a `messages.create` method, as every Anthropic SDK client has. */
export function isAnthropicClient(value: unknown): value is AnthropicClient {
  if (typeof value !== 'object' || value === null) return false;
  const { messages } = value as { readonly messages?: unknown };
  if (typeof messages !== 'object' || messages === null) return false;
  return typeof (messages as { readonly create?: unknown }).create === 'function';
}
