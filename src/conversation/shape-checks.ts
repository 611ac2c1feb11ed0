import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { Message, MessagePart } from './message.js';
import type { ModelParams, ModelRequest, ToolDefinition } from './model-request.js';
import type { ModelResponse } from './model-response.js';
import type { ToolResponse } from './tool-call.js';

/**
 * Structural checks for values that arrive from outside (a cassette file):
 * they must have the provider-neutral shape before the machine sees them.
 */
export function isMessagePart(value: JsonValue | undefined): value is MessagePart & JsonValue {
  if (!isJsonObject(value)) return false;
  switch (value.type) {
    case 'text':
      return typeof value.text === 'string';
    case 'thinking':
      return typeof value.thinking === 'string' && typeof value.signature === 'string';
    case 'tool_use':
      return typeof value.id === 'string' && typeof value.name === 'string' && isJsonObject(value.input);
    case 'tool_result':
      return typeof value.toolUseId === 'string' && value.content !== undefined && typeof value.isError === 'boolean';
    default:
      return false;
  }
}

/** True for a message in the provider-neutral shape. */
export function isMessage(value: JsonValue | undefined): value is Message & JsonValue {
  return (
    isJsonObject(value) &&
    (value.role === 'user' || value.role === 'assistant') &&
    Array.isArray(value.content) &&
    value.content.every(isMessagePart)
  );
}

/** True for a model response in the provider-neutral shape. */
export function isModelResponse(value: JsonValue | undefined): value is ModelResponse & JsonValue {
  return (
    isJsonObject(value) &&
    typeof value.id === 'string' &&
    typeof value.model === 'string' &&
    Array.isArray(value.content) &&
    value.content.every(isMessagePart) &&
    (value.stopReason === 'end_turn' || value.stopReason === 'tool_use' || value.stopReason === 'max_tokens') &&
    isJsonObject(value.usage) &&
    typeof value.usage.inputTokens === 'number' &&
    typeof value.usage.outputTokens === 'number'
  );
}

/** True for a tool response: `{ output, isError }`. */
export function isToolResponse(value: JsonValue | undefined): value is ToolResponse & JsonValue {
  return isJsonObject(value) && value.output !== undefined && typeof value.isError === 'boolean';
}

/** True for a tool as the model sees it: `{ name, description, inputSchema }`. */
export function isToolDefinition(value: JsonValue | undefined): value is ToolDefinition & JsonValue {
  return (
    isJsonObject(value) &&
    typeof value.name === 'string' &&
    typeof value.description === 'string' &&
    isJsonObject(value.inputSchema)
  );
}

/** True for a model request's parameters: `maxTokens`, and each sampling parameter a number when present. */
export function isModelParams(value: JsonValue | undefined): value is ModelParams & JsonValue {
  return (
    isJsonObject(value) &&
    typeof value.maxTokens === 'number' &&
    (['temperature', 'topP', 'topK'] as const).every(
      (name) => value[name] === undefined || typeof value[name] === 'number',
    )
  );
}

/** True for everything in a model request but its messages (a cassette keeps those apart, by digest). */
export function isModelRequestHead(value: JsonValue | undefined): value is Omit<ModelRequest, 'messages'> & JsonObject {
  return (
    isJsonObject(value) &&
    typeof value.model === 'string' &&
    typeof value.system === 'string' &&
    Array.isArray(value.tools) &&
    value.tools.every(isToolDefinition) &&
    isModelParams(value.params)
  );
}
