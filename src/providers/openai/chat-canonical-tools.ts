import type { ToolDefinition } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedChatRequest } from './chat-wire-refusal.js';

/** A body's `tools` as canonical tool definitions, and the list verbatim when the definitions cannot say it all. */
export interface ChatTools {
  readonly tools: ToolDefinition[];
  /** The body's `tools` as they came, set when any of them is not what `chatBodyOf` writes for its definition. */
  readonly verbatim?: readonly JsonObject[];
}

/**
 * The inverse of how `chatBodyOf` writes tools: `{ type: 'function', function: { name, description, parameters
 * } }`, nothing more and nothing less, is a definition. A function tool without a description or parameters,
 * with `strict`, or a custom tool, is a tool the model reads otherwise: the definitions then hold what they can
 * (a missing description as `''`, missing parameters as `{}`, no custom tool), and the whole list is kept
 * verbatim beside them, so that the request hash covers every tool exactly as it was sent.
 */
export function toolsOf(value: JsonValue | undefined): ChatTools {
  if (value === undefined || value === null) return { tools: [] };
  if (!isJsonArray(value)) throw unmappedChatRequest('tools', value, 'it is not a list');
  const tools: ToolDefinition[] = [];
  value.forEach((entry, i) => {
    const field = `tools[${i}]`;
    if (!isJsonObject(entry)) throw unmappedChatRequest(field, entry, 'a tool is an object');
    if (entry.type === 'custom') return;
    if (entry.type !== 'function')
      throw unmappedChatRequest(`${field}.type`, entry.type, 'a tool is a function tool or a custom tool');
    const fn = entry.function;
    if (!isJsonObject(fn) || typeof fn.name !== 'string')
      throw unmappedChatRequest(`${field}.function`, fn, 'a function tool has a function with a string name');
    const { description = '', parameters = {} } = fn;
    if (typeof description !== 'string')
      throw unmappedChatRequest(`${field}.function.description`, description, 'it is not a string');
    if (!isJsonObject(parameters))
      throw unmappedChatRequest(`${field}.function.parameters`, parameters, 'it is not an object');
    tools.push({ name: fn.name, description, inputSchema: parameters });
  });
  // Every entry was checked to be an object above.
  return value.every(isPlainFunctionTool) ? { tools } : { tools, verbatim: value.filter(isJsonObject) };
}

// What chatBodyOf writes for a definition: the type, and a function of a name, a description and parameters.
const isPlainFunctionTool = (entry: JsonValue): boolean =>
  isJsonObject(entry) &&
  Object.keys(entry).length === 2 &&
  isJsonObject(entry.function) &&
  Object.keys(entry.function).length === 3 &&
  'description' in entry.function &&
  'parameters' in entry.function;
