import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { Message, MessagePart } from './message.js';
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
