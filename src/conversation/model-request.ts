import type { JsonObject } from '../json/index.js';
import type { Message } from './message.js';

/** A tool as the model sees it: name, description and input schema. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/** Sampling and size parameters of a model request. Absent means "not sent". */
export interface ModelParams {
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
}

/** One model request in the provider-neutral shape. */
export interface ModelRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  readonly params: ModelParams;
}
