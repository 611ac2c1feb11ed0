import type { JsonObject, JsonValue } from '../json/index.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so these are hashed and stored as the plain JSON they are.

/** A request to one tool: the provider's call id is not part of it. */
export type ToolRequest = {
  readonly tool: string;
  readonly input: JsonObject;
};

/** What a tool answered: its output, and whether that output is an error. */
export type ToolResponse = {
  readonly output: JsonValue;
  readonly isError: boolean;
};
