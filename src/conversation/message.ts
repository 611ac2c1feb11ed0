import type { JsonObject, JsonValue } from '../json/index.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so these are hashed and stored as the plain JSON they are.

/** Plain text written by the user or the model, with the provider's citations of it, if any, verbatim. */
export type TextPart = {
  readonly type: 'text';
  readonly text: string;
  readonly citations?: readonly JsonObject[];
};

/**
 * The model's visible reasoning. `signature` is an opaque token the provider
 * mints afresh on every call and expects back verbatim.
 */
export type ThinkingPart = {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature: string;
};

/**
 * Reasoning the provider keeps encrypted. `data` is opaque, minted afresh on
 * every call, and must go back verbatim in the next request.
 */
export type RedactedThinkingPart = {
  readonly type: 'redacted_thinking';
  readonly data: string;
};

/** The model asks for a tool call. `id` is minted by the provider. */
export type ToolUsePart = {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: JsonObject;
};

/** The harness answers a tool call, referring to it by the provider's id. */
export type ToolResultPart = {
  readonly type: 'tool_result';
  readonly toolUseId: string;
  readonly content: JsonValue;
  readonly isError: boolean;
};

/**
 * A block the neutral shape has no kind of its own for (a server tool's call
 * or result, a search result, a kind a provider adds later), kept verbatim as
 * `provider` sent it and sent back to it so: never dropped.
 */
export type ProviderPart = {
  readonly type: 'provider';
  /** Whose block it is: `anthropic`, `openai`, ... */
  readonly provider: string;
  readonly block: JsonObject;
};

/** Any part of a message. */
export type MessagePart = TextPart | ThinkingPart | RedactedThinkingPart | ToolUsePart | ToolResultPart | ProviderPart;

/**
 * One conversation turn in the provider-neutral shape. Adapters translate a
 * real SDK's messages to and from it.
 */
export type Message = {
  readonly role: 'user' | 'assistant';
  readonly content: readonly MessagePart[];
};

/** The tool calls a message asks for, in the order the message lists them. */
export function toolUsesOf(message: Message): ToolUsePart[] {
  return message.content.filter((part): part is ToolUsePart => part.type === 'tool_use');
}

/** The text parts of a message joined with newlines. */
export function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}
