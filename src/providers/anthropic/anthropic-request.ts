import type { Message, MessagePart, ModelParams, ModelRequest, ToolDefinition } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import type { AnthropicMessageBody, FromAnthropicOptions } from './anthropic-client.js';
import { ownParams } from '../own-params.js';
import { containerOf, isEnvelope } from './anthropic-envelope.js';

/** The name the neutral shape gives Anthropic's own blocks (`ProviderPart.provider`). */
export const ANTHROPIC = 'anthropic';

/** A `/v1/messages` body: its required fields typed, and every field plain JSON. */
export type AnthropicBody = AnthropicMessageBody & JsonObject;

/**
 * The `/v1/messages` body of a neutral request. `params.provider.anthropic` goes in
 * verbatim first, so a field the neutral params name (`max_tokens`,
 * `temperature`, `thinking`, ...) is the neutral one when both say it;
 * each optional parameter is sent only when set.
 */
export function anthropicBodyOf(request: ModelRequest, options: FromAnthropicOptions): AnthropicBody {
  const { params } = request;
  const own = ownParams(params, ANTHROPIC);
  const metadata = options.metadata !== undefined && own.metadata === undefined;
  // A conversation that ran code in a container goes on in it, unless the build names one of its own.
  const container = own.container === undefined ? containerOf(request) : undefined;
  return {
    ...(container === undefined ? {} : { container }),
    ...own,
    ...(metadata ? { metadata: options.metadata } : {}),
    model: request.model,
    max_tokens: params.maxTokens,
    ...(request.system === '' ? {} : { system: request.system }),
    messages: request.messages.map(anthropicMessageOf),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(anthropicToolOf) }),
    ...samplingOf(params),
  };
}

function samplingOf(params: ModelParams): JsonObject {
  return {
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.topP === undefined ? {} : { top_p: params.topP }),
    ...(params.topK === undefined ? {} : { top_k: params.topK }),
    ...(params.stopSequences === undefined ? {} : { stop_sequences: params.stopSequences }),
    ...(params.thinking === undefined
      ? {}
      : { thinking: { type: 'enabled', budget_tokens: params.thinking.budgetTokens } }),
  };
}

const anthropicToolOf = (tool: ToolDefinition): JsonObject => ({
  name: tool.name,
  description: tool.description,
  input_schema: tool.inputSchema,
});

/**
 * True for a part Anthropic's API cannot take: another provider's own block (an
 * OpenAI reasoning item in a run forked from OpenAI, say). It is left out of
 * the request, and {@link fromAnthropic}'s `leavesOut` names it.
 */
export const anthropicLeavesOut = (part: MessagePart): boolean =>
  part.type === 'provider' && part.provider !== ANTHROPIC;

const anthropicMessageOf = (message: Message): JsonObject => ({
  role: message.role,
  content: message.content.filter((part) => !anthropicLeavesOut(part) && !isEnvelope(part)).map(anthropicBlockOf),
});

/** The Anthropic content block of a neutral part: every kind has one, so nothing is left out. */
export function anthropicBlockOf(part: MessagePart): JsonObject {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...(part.citations === undefined ? {} : { citations: part.citations }) };
    case 'thinking':
      return { type: 'thinking', thinking: part.thinking, signature: part.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: part.data };
    case 'tool_use':
      return { type: 'tool_use', id: part.id, name: part.name, input: part.input };
    case 'tool_result':
      // `is_error` is false when absent, so it is sent only when true.
      return {
        type: 'tool_result',
        tool_use_id: part.toolUseId,
        content: toolResultContentOf(part.content),
        ...(part.isError ? { is_error: true } : {}),
      };
    case 'provider':
      // Another provider's blocks never get here (anthropicLeavesOut).
      return part.block;
  }
}

/**
 * A tool result's content on the wire. The API takes a string, or an array of
 * its own content blocks (text, image, document, ...), and nothing else: a
 * string goes as it is, and any other JSON as its JSON text, since an object
 * has no place there and an array would be read as content blocks it is not.
 */
function toolResultContentOf(content: JsonValue): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}
