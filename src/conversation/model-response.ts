import type { MessagePart } from './message.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so these are hashed and stored as the plain JSON they are.

/** Why the model stopped writing. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens';

/** One model response in the provider-neutral shape. */
export type ModelResponse = {
  /** Minted by the provider for every call; never part of a request. */
  readonly id: string;
  readonly model: string;
  readonly content: readonly MessagePart[];
  readonly stopReason: StopReason;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
};
