import type { Message, MessagePart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { ANTHROPIC } from './anthropic-request.js';
import { unmappedBody } from './unmapped-body.js';

/**
 * What the inverse mapping keeps out of the request hash, by the field's path
 * in the body (`metadata`, `messages[3].content[0].cache_control`), each value
 * verbatim: the caller stores it beside the key, so nothing is lost.
 */
export type OutsideHash = Record<string, JsonValue>;

/**
 * `block` without its `cache_control`, which goes to `outside` under its path.
 * A cache breakpoint changes what a call costs, never what the model answers
 * (a cached prefix is the same prefix), so moving one must not turn a strict
 * replay into a miss.
 */
export function withoutCacheControl(block: JsonObject, path: string, outside: OutsideHash): JsonObject {
  if (!('cache_control' in block)) return block;
  const { cache_control: cacheControl, ...rest } = block;
  outside[`${path}.cache_control`] = cacheControl;
  return rest;
}

// Blocks the Messages API takes (its own and its betas', as @anthropic-ai/sdk 1.15 types them) that the neutral
// shape has no kind for: kept verbatim as Anthropic's own parts, which the forward mapping sends back as they are.
const VERBATIM_KINDS: ReadonlySet<string> = new Set([
  'image',
  'document',
  'search_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'advisor_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'mcp_tool_listing',
  'container_upload',
  'compaction',
  'tool_addition',
  'tool_removal',
  'fallback',
]);

/** The neutral conversation of a body's `messages`. */
export function neutralMessagesOf(messages: JsonValue | undefined, outside: OutsideHash): Message[] {
  if (!isJsonArray(messages)) throw unmappedBody('messages', messages ?? null, 'it is not an array of messages');
  return messages.map((message, i) => neutralMessageOf(message, `messages[${i}]`, outside));
}

function neutralMessageOf(message: JsonValue, path: string, outside: OutsideHash): Message {
  if (!isJsonObject(message)) throw unmappedBody(path, message, 'it is not an object');
  refuseOtherFields(message, ['role', 'content'], path);
  const { role, content } = message;
  if (role !== 'user' && role !== 'assistant')
    throw unmappedBody(`${path}.role`, role ?? null, 'it is not user or assistant');
  // The API reads a string as one text block (its documented shorthand): both forms are the same request.
  if (typeof content === 'string') return { role, content: [{ type: 'text', text: content }] };
  if (!isJsonArray(content))
    throw unmappedBody(`${path}.content`, content ?? null, 'it is neither a string nor an array of blocks');
  return { role, content: content.map((block, i) => neutralPartOf(block, `${path}.content[${i}]`, outside)) };
}

function neutralPartOf(raw: JsonValue, path: string, outside: OutsideHash): MessagePart {
  if (!isJsonObject(raw) || typeof raw.type !== 'string')
    throw unmappedBody(path, raw, 'it is not a block with a type');
  const kind = raw.type;
  const block = withoutCacheControl(raw, path, outside);
  switch (kind) {
    case 'text':
      return textPartOf(block, path);
    case 'thinking':
      refuseOtherFields(block, ['type', 'thinking', 'signature'], path);
      if (typeof block.thinking !== 'string' || typeof block.signature !== 'string')
        throw unmappedBody(path, raw, 'its thinking or signature is not a string');
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      refuseOtherFields(block, ['type', 'data'], path);
      if (typeof block.data !== 'string') throw unmappedBody(path, raw, 'its data is not a string');
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return toolUsePartOf(block, path);
    case 'tool_result':
      return toolResultPartOf(block, path, outside);
    default:
      if (VERBATIM_KINDS.has(kind)) return { type: 'provider', provider: ANTHROPIC, block };
      throw unmappedBody(
        `${path}.type`,
        kind,
        `"${kind}" is not a block kind forkpoint knows, so it cannot tell what in it changes the answer`,
      );
  }
}

function textPartOf(block: JsonObject, path: string): MessagePart {
  refuseOtherFields(block, ['type', 'text', 'citations'], path);
  const { text, citations } = block;
  if (typeof text !== 'string') throw unmappedBody(`${path}.text`, text ?? null, 'it is not a string');
  // `citations: null` is how a response's text block says it cites nothing, and a loop sends it back as it came.
  if (citations === undefined || citations === null) return { type: 'text', text };
  if (!isJsonArray(citations) || !citations.every(isJsonObject))
    throw unmappedBody(`${path}.citations`, citations, 'it is not a list of objects');
  return { type: 'text', text, citations: citations.filter(isJsonObject) };
}

/**
 * A tool call the loop sends back. `caller: { type: 'direct' }` is the default
 * the API writes on a response's call, so it is the same call as one without;
 * a call a server tool or a toolset made carries what the neutral shape cannot
 * hold, and the response mapping refuses it too.
 */
function toolUsePartOf(block: JsonObject, path: string): MessagePart {
  refuseOtherFields(block, ['type', 'id', 'name', 'input', 'caller', 'toolset_name'], path);
  const { id, name, input, caller, toolset_name: toolset } = block;
  if (typeof id !== 'string' || typeof name !== 'string')
    throw unmappedBody(path, block, 'its id or name is not a string');
  if (!isJsonObject(input)) throw unmappedBody(`${path}.input`, input ?? null, 'it is not a JSON object');
  const direct = caller === undefined || caller === null || (isJsonObject(caller) && caller.type === 'direct');
  if (!direct || (toolset !== undefined && toolset !== null))
    throw unmappedBody(path, block, 'it was called by a server tool or a toolset, which the neutral shape cannot hold');
  return { type: 'tool_use', id, name, input };
}

/**
 * A tool's answer. Its content stays what the loop sent: a string as the
 * string, a list of content blocks as that list (each without its
 * `cache_control`), no content at all as `null`, so no two of them share a
 * hash. `is_error` absent is the API's default, false.
 */
function toolResultPartOf(block: JsonObject, path: string, outside: OutsideHash): MessagePart {
  refuseOtherFields(block, ['type', 'tool_use_id', 'content', 'is_error', 'toolset_name'], path);
  const { tool_use_id: toolUseId, content, is_error: isError, toolset_name: toolset } = block;
  if (typeof toolUseId !== 'string') throw unmappedBody(`${path}.tool_use_id`, toolUseId ?? null, 'it is not a string');
  if (isError !== undefined && typeof isError !== 'boolean')
    throw unmappedBody(`${path}.is_error`, isError, 'it is not a boolean');
  if (toolset !== undefined && toolset !== null)
    throw unmappedBody(
      `${path}.toolset_name`,
      toolset,
      "a toolset member's result is not one the neutral shape can hold",
    );
  return {
    type: 'tool_result',
    toolUseId,
    content: toolResultContentOf(content, `${path}.content`, outside),
    isError: isError === true,
  };
}

function toolResultContentOf(content: JsonValue | undefined, path: string, outside: OutsideHash): JsonValue {
  if (content === undefined) return null;
  if (typeof content === 'string') return content;
  if (!isJsonArray(content)) throw unmappedBody(path, content, 'it is neither a string nor an array of blocks');
  return content.map((item, i) => {
    if (!isJsonObject(item) || typeof item.type !== 'string')
      throw unmappedBody(`${path}[${i}]`, item, 'it is not a block with a type');
    return withoutCacheControl(item, `${path}[${i}]`, outside);
  });
}

/** Refuses a field a block kind does not have: it may change the answer, and the neutral part has no room for it. */
export function refuseOtherFields(value: JsonObject, known: readonly string[], path: string): void {
  const other = Object.keys(value).find((key) => !known.includes(key));
  if (other !== undefined)
    throw unmappedBody(`${path}.${other}`, value[other] ?? null, `forkpoint does not know this field of ${path}`);
}
