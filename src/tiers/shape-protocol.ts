import type { Message, MessagePart, ModelResponse, ToolResponse } from '../conversation/index.js';
import type { JsonObject } from '../json/index.js';
import { shapeJson, shapeString } from './shape-json.js';

// The protocol's envelope (roles, part types, tool names, model ids, stop
// reasons) says how the run went, not what it was about, so it is kept.
// Everything the user, the model or a tool wrote is shaped. The ids and
// signatures the provider mints afresh on every call are noise to a structural
// check and are dropped (written as empty strings).

/** The shape of one message part. */
export function shapePart(part: MessagePart): MessagePart {
  switch (part.type) {
    case 'text':
      return part.citations === undefined
        ? { type: 'text', text: shapeString(part.text) }
        : { type: 'text', text: shapeString(part.text), citations: part.citations.map(shapeObject) };
    case 'thinking':
      return { type: 'thinking', thinking: shapeString(part.thinking), signature: '' };
    case 'tool_use':
      return { type: 'tool_use', id: '', name: part.name, input: shapeJson(part.input) as JsonObject };
    case 'tool_result':
      return { type: 'tool_result', toolUseId: '', content: shapeJson(part.content), isError: part.isError };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: '' };
    case 'provider':
      // The block's kind is envelope, as a part's type is; what it holds was written by someone.
      return {
        type: 'provider',
        provider: part.provider,
        block: { ...shapeObject(part.block), type: part.block.type ?? null },
      };
  }
}

const shapeObject = (value: JsonObject): JsonObject => shapeJson(value) as JsonObject;

/** The shape of a message: its role and the shape of each part. */
export const shapeMessage = (message: Message): Message => ({
  role: message.role,
  content: message.content.map(shapePart),
});

/**
 * The shape of a model response: the envelope kept, the content shaped. Token
 * counts are kept as they are: they say what a call cost, not what it said.
 */
export function shapeModelResponse(response: ModelResponse): ModelResponse {
  return {
    id: '',
    model: response.model,
    content: response.content.map(shapePart),
    stopReason: response.stopReason,
    ...(response.providerStopReason === undefined ? {} : { providerStopReason: response.providerStopReason }),
    usage: response.usage,
  };
}

/** The shape of a tool's answer: the output shaped, the error flag kept. */
export const shapeToolResponse = (response: ToolResponse): ToolResponse => ({
  output: shapeJson(response.output),
  isError: response.isError,
});
