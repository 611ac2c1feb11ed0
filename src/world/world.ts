import type { ModelRequest, ModelResponse } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';

/**
 * A model provider in the provider-neutral shape. An adapter wraps a real SDK
 * (`fromX`); scenarios may simulate one. A provider refuses a request by
 * throwing a `ForkpointError` with code `PROVIDER_REJECTED`.
 */
export interface ModelProvider {
  respond(request: ModelRequest): Promise<ModelResponse>;
}

/** A tool backend: takes the model's input, returns the tool's output or throws. */
/**
 * A tool backend. It returns the tool's output, or throws: the model then sees
 * `{ error: message }`, with `retryable: true` when the error has a
 * `retryable: true` property (a transient failure a build's `retryTool` may retry).
 */
export type ToolHandler = (input: JsonObject) => Promise<JsonValue> | JsonValue;

/** What answers a live run's requests: a model provider and the tool backends. */
export interface World {
  readonly model: ModelProvider;
  readonly tools: Readonly<Record<string, ToolHandler>>;
}
