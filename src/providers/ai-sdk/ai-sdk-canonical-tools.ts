import type { ToolDefinition } from '../../conversation/index.js';
import type { JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { callJsonOf, unmappedCall } from './ai-sdk-call-json.js';

/**
 * The canonical tools of a call's `tools`. When every tool is a function
 * tool of exactly a name, a description and a schema (what the forward
 * mapping writes, and what `ai` writes for a `tool({ description,
 * inputSchema })`), they are the request's tools, in their order. Otherwise
 * (a provider tool, `strict`, `inputExamples`, a tool's own options, no
 * description, which a provider sends otherwise than an empty one) the whole
 * list is kept verbatim as `own.tools`, which the forward mapping sends as it
 * is when the request names no tools, and the request names none: nothing
 * of it is dropped, and its order (which the model reads) is kept.
 */
export function canonicalToolsOf(tools: unknown, own: Record<string, JsonValue>): ToolDefinition[] {
  if (tools === undefined) return [];
  const list = callJsonOf(tools, 'tools');
  if (!isJsonArray(list))
    throw unmappedCall('tools', list, 'it is not an array of tools', 'give the tools as the specification types them');
  list.forEach(checkTool);
  const canonical = list.flatMap((tool): ToolDefinition[] => {
    if (!isJsonObject(tool) || tool.type !== 'function') return [];
    const { name, description, inputSchema } = tool;
    const exact = Object.keys(tool).length === 4 && typeof description === 'string';
    return exact && typeof name === 'string' && isJsonObject(inputSchema) ? [{ name, description, inputSchema }] : [];
  });
  const names = new Set(canonical.map((tool) => tool.name));
  if (list.length > 0 && canonical.length === list.length && names.size === list.length) return canonical;
  own.tools = list;
  return [];
}

/** A tool is a function tool with a name and a schema, or a provider tool with an id and a name. */
function checkTool(tool: JsonValue, i: number): void {
  const field = `tools[${i}]`;
  if (!isJsonObject(tool))
    throw unmappedCall(field, tool, 'it is not an object', 'give each tool as the specification types it');
  if (tool.type === 'function') {
    if (typeof tool.name !== 'string')
      throw unmappedCall(`${field}.name`, tool.name ?? null, 'it is not a string', 'name the tool');
    if (!isJsonObject(tool.inputSchema))
      throw unmappedCall(
        `${field}.inputSchema`,
        tool.inputSchema ?? null,
        'it is not a JSON schema object',
        'give one',
      );
    return;
  }
  if (tool.type === 'provider' || tool.type === 'provider-defined') {
    if (typeof tool.id !== 'string' || typeof tool.name !== 'string')
      throw unmappedCall(`${field}.id`, tool.id ?? null, 'a provider tool has a string id and name', 'give both');
    return;
  }
  throw unmappedCall(
    `${field}.type`,
    tool.type ?? null,
    `${JSON.stringify(tool.type ?? null)} is not a tool type of the specification`,
    'forkpoint reads function and provider tools',
  );
}
