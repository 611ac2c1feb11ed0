import type { JsonObject } from '../json/index.js';
import type { Message } from './message.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so these are hashed and stored as the plain JSON they are.

/** A tool as the model sees it: name, description and input schema. */
export type ToolDefinition = {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
};

/** Sampling and size parameters of a model request. Absent means "not sent". */
export type ModelParams = {
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  /** Text that ends the model's turn when it writes it. */
  readonly stopSequences?: readonly string[];
  /** Extended reasoning, with the most tokens it may spend. */
  readonly thinking?: { readonly budgetTokens: number };
  /**
   * Anything else a provider takes, in its own names, under the provider's
   * name: `{ anthropic: { cache_control, tool_choice }, openai: {
   * reasoning_effort }, 'ai-sdk': { providerOptions } }`. Each adapter sends its
   * own entry verbatim and ignores the others, so a request can move to another
   * provider's model (a fork with `--model`). It is part of the request hash: a
   * change in it is a change in the request.
   */
  readonly provider?: Readonly<Record<string, JsonObject>>;
};

/** One model request in the provider-neutral shape. */
export type ModelRequest = {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  readonly params: ModelParams;
};
