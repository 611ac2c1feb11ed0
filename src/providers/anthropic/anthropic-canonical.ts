import type { ModelParams, ModelRequest, ToolDefinition } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { assertJsonValue, isJsonArray, isJsonObject } from '../../json/index.js';
import { ANTHROPIC } from './anthropic-request.js';
import type { OutsideHash } from './anthropic-canonical-blocks.js';
import { neutralMessagesOf, withoutCacheControl } from './anthropic-canonical-blocks.js';
import { unmappedBody } from './unmapped-body.js';

/** A `/v1/messages` body as the neutral request a run hashes, and what was kept out of the hash. */
export interface NeutralOfAnthropicBody {
  /** The neutral request: hashed by the request hasher exactly as a driven run's. */
  readonly request: ModelRequest;
  /** Whether the SDK asked for a stream. Not in the hash: the same question streamed or not has the same answer. */
  readonly stream: boolean;
  /** What is out of the hash, by path in the body, verbatim (see {@link neutralRequestOfAnthropicBody}). */
  readonly outsideHash: Readonly<OutsideHash>;
}

/** What of the request is outside its JSON body. */
export interface AnthropicBodyContext {
  /** The `anthropic-beta` header's values, split at its commas (the SDK's `betas`): a beta changes what the API does. */
  readonly betas?: readonly string[];
}

// Body fields read here; every other one goes verbatim into `params.provider.anthropic`.
const MAPPED = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'thinking',
  'betas',
]);

// Fields that never change the model's answer, kept out of the hash (and in `outsideHash`):
// - `stream`: the same request streamed or not gets the same answer; a session keys the stream apart;
// - `metadata`: who asks (`user_id`), not what is asked; `fromAnthropic` keeps its own out of the hash alike;
// - `cache_control`: what a call costs, not what it answers (see withoutCacheControl).
const OUTSIDE_HASH = new Set(['stream', 'metadata', 'cache_control']);

/**
 * The neutral request of a `POST /v1/messages` body as an Anthropic SDK sent
 * it: the inverse of `anthropicBodyOf`, so that a call an agent's own loop
 * makes hashes as a driven run's request does. Each field maps to the neutral
 * field the forward mapping writes it from, or, where the neutral shape cannot
 * hold it exactly (a system of blocks, a tool with more than a name, a
 * description and a schema, `tool_choice`, an adaptive `thinking`, any field
 * the API adds), goes verbatim into `params.provider.anthropic`, which the hash
 * covers and the forward mapping sends back as it is. Only `stream`,
 * `metadata` and every `cache_control` stay out of the hash, each in
 * `outsideHash` under its path. Shorthands the API reads as the longer form
 * (a string content, `citations: null`, a direct `caller`, `is_error: false`)
 * map to the same neutral request.
 *
 * A body it cannot map without guessing (not plain JSON, a required field
 * missing, a block kind it does not know, a field a block kind does not have)
 * is `PROVIDER_UNMAPPED`, naming the field by its path.
 */
export function neutralRequestOfAnthropicBody(
  body: JsonObject,
  context: AnthropicBodyContext = {},
): NeutralOfAnthropicBody {
  try {
    assertJsonValue(body, 'the body', 'PROVIDER_UNMAPPED');
  } catch (error) {
    throw unmappedBody('body', null, error instanceof Error ? error.message : String(error));
  }
  if (!isJsonObject(body)) throw unmappedBody('body', body, 'it is not a JSON object');
  const outside: OutsideHash = {};
  const own: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(body)) {
    if (OUTSIDE_HASH.has(key)) outside[key] = value;
    else if (!MAPPED.has(key)) own[key] = value;
  }
  const { model, max_tokens: maxTokens, stream } = body;
  if (typeof model !== 'string') throw unmappedBody('model', model ?? null, 'it is not a string');
  if (typeof maxTokens !== 'number') throw unmappedBody('max_tokens', maxTokens ?? null, 'it is not a number');
  if (stream !== undefined && typeof stream !== 'boolean') throw unmappedBody('stream', stream, 'it is not a boolean');
  const messages = neutralMessagesOf(body.messages, outside);
  const system = systemOf(body.system, own, outside);
  const tools = toolsOf(body.tools, own, outside);
  const betas = betasOf(body.betas, context.betas);
  if (betas !== undefined) own.betas = betas;
  const params: ModelParams = {
    maxTokens,
    ...samplingOf(body, own),
    ...(Object.keys(own).length === 0 ? {} : { provider: { [ANTHROPIC]: own } }),
  };
  return { request: { model, system, messages, tools, params }, stream: stream === true, outsideHash: outside };
}

/** A non-empty string is the neutral system; an empty one or a list of blocks goes verbatim (the forward mapping sends neither). */
function systemOf(system: JsonValue | undefined, own: Record<string, JsonValue>, outside: OutsideHash): string {
  if (system === undefined) return '';
  if (typeof system === 'string') {
    if (system === '') own.system = system;
    return system;
  }
  if (!isJsonArray(system)) throw unmappedBody('system', system, 'it is neither a string nor an array of text blocks');
  own.system = system.map((block, i) => {
    if (!isJsonObject(block)) throw unmappedBody(`system[${i}]`, block, 'it is not a block');
    return withoutCacheControl(block, `system[${i}]`, outside);
  });
  return '';
}

/**
 * The neutral tools when every tool is exactly a name, a description and an
 * input schema (what the forward mapping writes); otherwise the whole list
 * goes verbatim, since splitting it would reorder what the model sees.
 */
function toolsOf(tools: JsonValue | undefined, own: Record<string, JsonValue>, outside: OutsideHash): ToolDefinition[] {
  if (tools === undefined) return [];
  if (!isJsonArray(tools)) throw unmappedBody('tools', tools, 'it is not an array of tools');
  const stripped = tools.map((tool, i) => {
    if (!isJsonObject(tool)) throw unmappedBody(`tools[${i}]`, tool, 'it is not a tool object');
    return withoutCacheControl(tool, `tools[${i}]`, outside);
  });
  const neutral = stripped.flatMap((tool) => neutralToolOf(tool) ?? []);
  if (stripped.length > 0 && neutral.length === stripped.length) return neutral;
  own.tools = stripped;
  return [];
}

function neutralToolOf(tool: JsonObject): ToolDefinition | undefined {
  const { name, description, input_schema: inputSchema } = tool;
  const exact = Object.keys(tool).length === 3;
  if (!exact || typeof name !== 'string' || typeof description !== 'string' || !isJsonObject(inputSchema))
    return undefined;
  return { name, description, inputSchema };
}

function samplingOf(body: JsonObject, own: Record<string, JsonValue>): Omit<ModelParams, 'maxTokens'> {
  const number = (field: string): number | undefined => {
    const value = body[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number') throw unmappedBody(field, value, 'it is not a number');
    return value;
  };
  const temperature = number('temperature');
  const topP = number('top_p');
  const topK = number('top_k');
  const { stop_sequences: stops, thinking } = body;
  if (stops !== undefined && (!isJsonArray(stops) || !stops.every((stop) => typeof stop === 'string')))
    throw unmappedBody('stop_sequences', stops, 'it is not an array of strings');
  if (thinking !== undefined && !isJsonObject(thinking))
    throw unmappedBody('thinking', thinking, 'it is not an object');
  const budget = thinking === undefined ? undefined : enabledBudgetOf(thinking);
  // An adaptive or disabled thinking, or one with more than a budget, is the API's own: verbatim.
  if (thinking !== undefined && budget === undefined) own.thinking = thinking;
  return {
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(topK === undefined ? {} : { topK }),
    ...(stops === undefined ? {} : { stopSequences: stops.filter((stop) => typeof stop === 'string') }),
    ...(budget === undefined ? {} : { thinking: { budgetTokens: budget } }),
  };
}

function enabledBudgetOf(thinking: JsonObject): number | undefined {
  const { type, budget_tokens: budget } = thinking;
  const exact = Object.keys(thinking).length === 2 && type === 'enabled' && typeof budget === 'number';
  return exact ? budget : undefined;
}

/**
 * The betas a request runs under, from the body's `betas` (the SDK's
 * parameter, when a caller hands over its params) and the `anthropic-beta`
 * header: sorted and each once, since their order does not change what the
 * API does.
 */
function betasOf(field: JsonValue | undefined, header: readonly string[] | undefined): string[] | undefined {
  if (field !== undefined && (!isJsonArray(field) || !field.every((beta) => typeof beta === 'string')))
    throw unmappedBody('betas', field, 'it is not an array of strings');
  const all = [...(field ?? []), ...(header ?? [])].filter((beta): beta is string => typeof beta === 'string');
  const betas = [...new Set(all.map((beta) => beta.trim()).filter((beta) => beta !== ''))].sort();
  return betas.length === 0 ? undefined : betas;
}
