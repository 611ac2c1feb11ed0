import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import { GEN_AI } from './semconv.js';
import type { SpanAttributes } from './usage-attributes.js';

// The opt-in content attributes of the GenAI conventions, as JSON strings (the conventions' form on spans).
// The tracer's attribute value length limit truncates each one; nothing here decides what to leave out.

// One part of a model response in the conventions' output message schema.
function outputPart(part: JsonValue): JsonObject | undefined {
  if (!isJsonObject(part)) return undefined;
  switch (part.type) {
    case 'text':
      return { type: 'text', content: part.text ?? '' };
    case 'thinking':
      return { type: 'reasoning', content: part.thinking ?? '' };
    case 'tool_use':
      return { type: 'tool_call', id: part.id ?? null, name: part.name ?? null, arguments: part.input ?? null };
    default:
      // Redacted reasoning and providers' own blocks hold nothing a reader of the trace can use.
      return undefined;
  }
}

/** `gen_ai.output.messages` of a model step's response: one assistant message with its parts and stop reason. */
export function modelPayloadAttributes(response: JsonValue): SpanAttributes {
  if (!isJsonObject(response)) return {};
  const content = isJsonArray(response.content) ? response.content : [];
  const parts = content.map(outputPart).filter((part) => part !== undefined);
  const message: JsonObject = {
    role: 'assistant',
    parts,
    finish_reason: typeof response.stopReason === 'string' ? response.stopReason : null,
  };
  return { [GEN_AI.outputMessages]: JSON.stringify([message]) };
}

/** `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` of a tool step. */
export function toolPayloadAttributes(request: JsonValue, response: JsonValue): SpanAttributes {
  const input = isJsonObject(request) ? request.input : undefined;
  const output = isJsonObject(response) ? response.output : undefined;
  return {
    ...(input === undefined ? {} : { [GEN_AI.toolCallArguments]: JSON.stringify(input) }),
    ...(output === undefined ? {} : { [GEN_AI.toolCallResult]: JSON.stringify(output) }),
  };
}
