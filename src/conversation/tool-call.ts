import type { JsonObject, JsonValue } from '../json/index.js';

/** A request to one tool: the provider's call id is not part of it. */
export interface ToolRequest {
  readonly tool: string;
  readonly input: JsonObject;
}

/** What a tool answered: its output, and whether that output is an error. */
export interface ToolResponse {
  readonly output: JsonValue;
  readonly isError: boolean;
}
