import type { JsonObject, JsonValue } from '../json/index.js';
import type { MessagePart } from './message.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so these are hashed and stored as the plain JSON they are.

/**
 * Why the model stopped writing, in terms every provider maps to:
 * - `end_turn`: it finished its turn; `tool_use`: it asks for tools;
 * - `max_tokens`: it reached the request's limit; `stop_sequence`: it wrote one of the request's stop sequences;
 * - `pause_turn`: the provider paused a long turn, to be continued by the next model call;
 * - `refusal`, `content_filter`: the model or the provider's filter declined;
 * - `context_window_exceeded`: the conversation no longer fits the model;
 * - `other`: a reason the provider gave that none of these names (the response's `providerStopReason` holds it).
 */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'content_filter'
  | 'context_window_exceeded'
  | 'other';

/** Every stop reason, in the order {@link StopReason} lists them. */
export const STOP_REASONS: readonly StopReason[] = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
  'content_filter',
  'context_window_exceeded',
  'other',
];

/**
 * The tokens of one model call as the provider reported them, in one
 * normalised form that prices the same way for every provider:
 * - `inputTokens`: input billed at the input rate (not read from or written to a cache);
 * - `cacheReadTokens`, `cacheWriteTokens`: input read from, and written to, the provider's prompt cache;
 * - `outputTokens`: everything written, reasoning included; `reasoningTokens`: the part of it that was reasoning.
 * An absent count is one the provider did not report. `provider` keeps the provider's own usage object verbatim.
 */
export type Usage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  readonly reasoningTokens?: number;
  readonly provider?: JsonObject;
};

/**
 * A model answer as a wrapped SDK received it, which a wrapped session's
 * replay serves back as it was, so the loop's own parsing code sees the same
 * bytes or parts:
 * - `anthropic` / `openai-chat`: the HTTP response body, `text` a JSON
 *   document, or the server-sent event stream when `streamed`;
 * - `ai-sdk`: what `doGenerate` returned, or when `streamed` the stream
 *   parts, in their stored JSON form (a `Date` revived on replay).
 */
export type WireAnswer = {
  readonly format: 'anthropic' | 'openai-chat' | 'ai-sdk';
  readonly streamed: boolean;
  /** The HTTP body's text (`anthropic`, `openai-chat`), or the stored JSON of the result or parts (`ai-sdk`). */
  readonly body: JsonValue;
};

/** One model response in the provider-neutral shape. */
export type ModelResponse = {
  /** Minted by the provider for every call; never part of a request. */
  readonly id: string;
  readonly model: string;
  readonly content: readonly MessagePart[];
  readonly stopReason: StopReason;
  /** The provider's own word for why it stopped, when the neutral one says less (`other`), or differs. */
  readonly providerStopReason?: string;
  readonly usage: Usage;
  /**
   * Set on the responses of a wrapped loop's model calls: the answer as its
   * SDK received it (see {@link WireAnswer}). Everything else in the response
   * is read from it.
   */
  readonly wire?: WireAnswer;
};
