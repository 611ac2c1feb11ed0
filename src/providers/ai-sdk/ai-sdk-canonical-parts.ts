import type { MessagePart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { callObjectOf, unmappedCall } from './ai-sdk-call-json.js';
import { withoutCacheMarks } from './ai-sdk-cache-marks.js';
import { providerPartOf } from './ai-sdk-provider-parts.js';

/** The prompt messages a part may stand in, as the specification (v2, v3) allows them. */
export type PromptRole = 'user' | 'assistant' | 'tool';

const ALLOWED: Readonly<Record<PromptRole, readonly string[]>> = {
  user: ['text', 'file'],
  assistant: ['text', 'file', 'reasoning', 'tool-call', 'tool-result'],
  tool: ['tool-result', 'tool-approval-response'],
};

/** What the parts of one prompt share: the model's provider, the calls named so far, what was left out. */
export interface PartReading {
  readonly provider: string;
  /** The tool name of each canonical tool call so far, by id: a canonical tool result names its call's tool. */
  readonly toolNames: Map<string, string>;
  readonly leftOut: Set<string>;
}

/**
 * The canonical part of one prompt part: exactly what the forward mapping
 * (ai-sdk-prompt.ts) writes for a canonical part goes back to it (text, with
 * Anthropic's citations; reasoning with exactly an Anthropic signature or
 * redacted data; a tool call for the harness; a tool result of text or JSON
 * naming its call's tool); any other part of a kind the specification names
 * (a file, an approval, a part with options of its own, a tool the provider
 * ran) is kept verbatim as a `provider` part, its options as
 * `providerMetadata` as a result's part holds them, so that it is hashed as
 * it is and never dropped. A kind the specification does not name, or one in
 * a message that cannot hold it, is refused.
 */
export function canonicalPartOf(raw: unknown, role: PromptRole, field: string, reading: PartReading): MessagePart {
  const part = withoutPartCacheMarks(callObjectOf(raw, field), reading.leftOut);
  const { type } = part;
  if (typeof type !== 'string' || !ALLOWED[role].includes(type)) {
    throw unmappedCall(
      `${field}.type`,
      type ?? null,
      `a ${role} message holds no part of type ${JSON.stringify(type ?? null)}`,
      `forkpoint reads a ${role} message's ${ALLOWED[role].join(', ')} parts of the LanguageModel specification v3`,
    );
  }
  checkFields(part, field);
  return (
    canonicalTextOf(part) ??
    canonicalReasoningOf(part) ??
    canonicalToolCallOf(part) ??
    canonicalToolResultOf(part, reading.toolNames) ??
    keptPartOf(part, reading.provider)
  );
}

/** Notes the tool name of a tool call that maps to a canonical tool use, for the results that answer it. */
export function registerToolCall(raw: unknown, field: string, reading: PartReading): void {
  const part = withoutPartCacheMarks(callObjectOf(raw, field), new Set());
  const canonical = part.type === 'tool-call' ? canonicalToolCallOf(part) : undefined;
  if (canonical?.type === 'tool_use') reading.toolNames.set(canonical.id, canonical.name);
}

function withoutPartCacheMarks(part: JsonObject, leftOut: Set<string>): JsonObject {
  const { providerOptions, ...rest } = part;
  if (!isJsonObject(providerOptions)) return part;
  const unmarked = withoutCacheMarks(providerOptions, leftOut);
  const kept =
    part.type === 'tool-call' || part.type === 'tool-result' ? withoutDirectCaller(unmarked, leftOut) : unmarked;
  return Object.keys(kept).length === 0 ? rest : { ...rest, providerOptions: kept };
}

/**
 * Options without @ai-sdk/anthropic's `caller: { type: 'direct' }`, which it
 * gives every tool call the model made itself and `ai` copies onto the call
 * and its result in the next prompt: the API's default, which the response
 * mapping reads as a plain tool call (ai-sdk-content.ts), so the same call
 * is the same canonical tool use whichever way it came. Any other caller (a
 * server tool's) is kept.
 */
function withoutDirectCaller(options: JsonObject, leftOut: Set<string>): JsonObject {
  const { anthropic } = options;
  if (!isJsonObject(anthropic) || !isJsonObject(anthropic.caller)) return options;
  const { caller, ...rest } = anthropic;
  if (!isJsonObject(caller) || caller.type !== 'direct' || Object.keys(caller).length !== 1) return options;
  leftOut.add('providerOptions.anthropic.caller');
  const { anthropic: _direct, ...others } = options;
  return Object.keys(rest).length === 0 ? others : { ...others, anthropic: rest };
}

/** A part's identifying fields are what the specification types them, or the part is malformed. */
function checkFields(part: JsonObject, field: string): void {
  const strings: Readonly<Record<string, readonly string[]>> = {
    text: ['text'],
    reasoning: ['text'],
    file: ['mediaType'],
    'tool-call': ['toolCallId', 'toolName'],
    'tool-result': ['toolCallId', 'toolName'],
    'tool-approval-response': ['approvalId'],
  };
  for (const name of strings[part.type as string] ?? []) {
    if (typeof part[name] !== 'string')
      throw unmappedCall(`${field}.${name}`, part[name] ?? null, 'it is not a string', 'give it as a string');
  }
  if (part.type === 'tool-result' && !(isJsonObject(part.output) && typeof part.output.type === 'string'))
    throw unmappedCall(`${field}.output`, part.output ?? null, 'it names no output type', 'give `{ type, value }`');
}

/** True when `part` has no fields but the named ones. */
const only = (part: JsonObject, names: readonly string[]): boolean =>
  Object.keys(part).every((name) => names.includes(name));

function canonicalTextOf(part: JsonObject): MessagePart | undefined {
  if (part.type !== 'text' || typeof part.text !== 'string' || !only(part, ['type', 'text', 'providerOptions']))
    return undefined;
  if (part.providerOptions === undefined) return { type: 'text', text: part.text };
  const anthropic = soleEntry(part.providerOptions, 'anthropic');
  const citations = anthropic === undefined ? undefined : soleEntry(anthropic, 'citations');
  return isJsonArray(citations) && citations.every(isJsonObject)
    ? { type: 'text', text: part.text, citations: citations.filter(isJsonObject) }
    : undefined;
}

function canonicalReasoningOf(part: JsonObject): MessagePart | undefined {
  if (part.type !== 'reasoning' || typeof part.text !== 'string' || !only(part, ['type', 'text', 'providerOptions']))
    return undefined;
  const anthropic = soleEntry(part.providerOptions, 'anthropic');
  const signature = anthropic === undefined ? undefined : soleEntry(anthropic, 'signature');
  if (typeof signature === 'string') return { type: 'thinking', thinking: part.text, signature };
  const redacted = anthropic === undefined ? undefined : soleEntry(anthropic, 'redactedData');
  // The forward mapping writes redacted reasoning with no text: one with text says more than the canonical part.
  return typeof redacted === 'string' && part.text === '' ? { type: 'redacted_thinking', data: redacted } : undefined;
}

function canonicalToolCallOf(part: JsonObject): MessagePart | undefined {
  const { type, toolCallId, toolName, input } = part;
  if (type !== 'tool-call' || !only(part, ['type', 'toolCallId', 'toolName', 'input'])) return undefined;
  if (typeof toolCallId !== 'string' || typeof toolName !== 'string' || !isJsonObject(input)) return undefined;
  return { type: 'tool_use', id: toolCallId, name: toolName, input };
}

/**
 * A tool result the forward mapping writes: text as `text`, other JSON as
 * `json` (errors as `error-text`, `error-json`), naming the tool its call
 * named. A `json` output holding a string, which the forward mapping would
 * write as `text`, is not one.
 */
function canonicalToolResultOf(part: JsonObject, toolNames: ReadonlyMap<string, string>): MessagePart | undefined {
  const { type, toolCallId, toolName, output } = part;
  if (type !== 'tool-result' || !only(part, ['type', 'toolCallId', 'toolName', 'output'])) return undefined;
  if (typeof toolCallId !== 'string' || toolNames.get(toolCallId) !== toolName) return undefined;
  if (!isJsonObject(output) || !only(output, ['type', 'value']) || output.value === undefined) return undefined;
  const content: JsonValue = output.value;
  const text = typeof content === 'string';
  const isError = output.type === 'error-text' || output.type === 'error-json';
  const expected = isError ? (text ? 'error-text' : 'error-json') : text ? 'text' : 'json';
  return output.type === expected ? { type: 'tool_result', toolUseId: toolCallId, content, isError } : undefined;
}

/** A part kept as it is, its options under the name a result's part gives them (what the forward mapping reads). */
function keptPartOf(part: JsonObject, provider: string): MessagePart {
  const { providerOptions, ...rest } = part;
  return providerPartOf(
    provider,
    providerOptions === undefined ? rest : { ...rest, providerMetadata: providerOptions },
  );
}

/** The value of an object's only key, when that key is `name`. */
function soleEntry(value: JsonValue | undefined, name: string): JsonValue | undefined {
  if (!isJsonObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === name ? value[name] : undefined;
}
