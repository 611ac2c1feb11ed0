import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { Message, MessagePart } from './message.js';
import type { ModelParams, ModelRequest, ToolDefinition } from './model-request.js';
import type { ModelResponse, StopReason } from './model-response.js';
import { STOP_REASONS } from './model-response.js';
import type { ToolResponse } from './tool-call.js';

/**
 * Structural checks for values that arrive from outside (a cassette file):
 * they must have the provider-neutral shape before the machine sees them.
 */
export function isMessagePart(value: JsonValue | undefined): value is MessagePart & JsonValue {
  if (!isJsonObject(value)) return false;
  switch (value.type) {
    case 'text':
      return typeof value.text === 'string' && (value.citations === undefined || isObjectList(value.citations));
    case 'thinking':
      return typeof value.thinking === 'string' && typeof value.signature === 'string';
    case 'redacted_thinking':
      return typeof value.data === 'string';
    case 'provider':
      return typeof value.provider === 'string' && isJsonObject(value.block);
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

const STOP_REASON_SET: ReadonlySet<string> = new Set<StopReason>(STOP_REASONS);
const COUNTS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** True for a model response in the provider-neutral shape. */
export function isModelResponse(value: JsonValue | undefined): value is ModelResponse & JsonValue {
  return (
    isJsonObject(value) &&
    typeof value.id === 'string' &&
    typeof value.model === 'string' &&
    Array.isArray(value.content) &&
    value.content.every(isMessagePart) &&
    typeof value.stopReason === 'string' &&
    STOP_REASON_SET.has(value.stopReason) &&
    (value.providerStopReason === undefined || typeof value.providerStopReason === 'string') &&
    isUsage(value.usage) &&
    (value.wire === undefined || isWireAnswer(value.wire))
  );
}

const WIRE_FORMATS: ReadonlySet<string> = new Set(['anthropic', 'openai-chat', 'ai-sdk']);

function isWireAnswer(value: JsonValue): boolean {
  return (
    isJsonObject(value) &&
    typeof value.format === 'string' &&
    WIRE_FORMATS.has(value.format) &&
    typeof value.streamed === 'boolean' &&
    value.body !== undefined
  );
}

/** True for token counts: input and output, each other count a whole number when present, the provider's own an object. */
function isUsage(value: JsonValue | undefined): boolean {
  if (!isJsonObject(value)) return false;
  const usage = value;
  return (
    typeof usage.inputTokens === 'number' &&
    typeof usage.outputTokens === 'number' &&
    COUNTS.every((name) => usage[name] === undefined || isCount(usage[name])) &&
    (usage.provider === undefined || isJsonObject(usage.provider))
  );
}

const isCount = (value: JsonValue | undefined): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

const isObjectList = (value: JsonValue | undefined): boolean => Array.isArray(value) && value.every(isJsonObject);

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

/**
 * True for a model request's parameters: `maxTokens`, each sampling parameter
 * a number when present, stop sequences strings, a thinking budget a number,
 * and each provider's own parameters an object under its name.
 */
export function isModelParams(value: JsonValue | undefined): value is ModelParams & JsonValue {
  if (!isJsonObject(value)) return false;
  const { stopSequences, thinking, provider } = value;
  return (
    typeof value.maxTokens === 'number' &&
    (['temperature', 'topP', 'topK'] as const).every(
      (name) => value[name] === undefined || typeof value[name] === 'number',
    ) &&
    (stopSequences === undefined ||
      (Array.isArray(stopSequences) && stopSequences.every((item) => typeof item === 'string'))) &&
    (thinking === undefined || (isJsonObject(thinking) && typeof thinking.budgetTokens === 'number')) &&
    (provider === undefined || (isJsonObject(provider) && Object.values(provider).every(isJsonObject)))
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
