import type { ModelParams, ModelRequest } from '../../conversation/index.js';
import type { JsonValue } from '../../json/index.js';
import { callJsonOf, callObjectOf, unmappedCall } from './ai-sdk-call-json.js';
import { conversationOf } from './ai-sdk-canonical-prompt.js';
import { canonicalToolsOf } from './ai-sdk-canonical-tools.js';
import { headersKeptOf } from './ai-sdk-canonical-headers.js';
import { AI_SDK } from './ai-sdk-prompt.js';
import { liftThinking } from './ai-sdk-canonical-thinking.js';

/** Which model a middleware's call goes to: what `wrapGenerate` and `wrapStream` get as `model`. */
export interface AiSdkModelIdentity {
  /** The provider's id, e.g. `anthropic.messages`: the name of its own parts. */
  readonly provider: string;
  readonly modelId: string;
}

/** A call's canonical request, and what of the call it leaves out. */
export interface CanonicalAiSdkCall {
  readonly request: ModelRequest;
  /**
   * The options of the call left out of the request, by name (never with
   * their values: a left-out header may be a credential), each of which
   * changes how the call is made or what it costs, never what the model
   * answers: `abortSignal`, `includeRawChunks` (which stream parts come back:
   * a stream is keyed apart from the request), `toolChoice` when it is
   * `auto` (the specification's default), the headers named in
   * ai-sdk-canonical-headers.ts, and cache marks.
   */
  readonly leftOut: readonly string[];
}

// The options the forward mapping (ai-sdk-prompt.ts) writes from the canonical request's own fields.
const SAMPLING = ['temperature', 'topP', 'topK'] as const;

/**
 * The canonical request of a LanguageModel (v2, v3) call, as a
 * `wrapLanguageModel` middleware's `wrapGenerate` or `wrapStream` gets it
 * (`params`, and the `model` it goes to): the inverse of the forward mapping
 * (`callOptionsOf`, ai-sdk-prompt.ts), so that a call of a loop forkpoint
 * does not drive is hashed exactly as the same call of a driven run.
 *
 * - The model id is the request's model; the prompt its system prompt and
 *   messages; function tools of exactly a name, a description and a schema
 *   its tools; `maxOutputTokens`, `temperature`, `topP`, `topK` and
 *   `stopSequences` its params, an Anthropic thinking budget lifted as the
 *   forward mapping puts it. An absent `maxOutputTokens` (the provider's
 *   default) is `maxTokens: 0`, a value `ai` never sends (it wants 1 or more).
 * - Every other option (`providerOptions`, `toolChoice`, `seed`,
 *   `responseFormat`, `presencePenalty`, `frequencyPenalty`, the headers that
 *   may change the answer, tools with more than those three fields, an option
 *   a later specification adds) is kept verbatim in
 *   `params.provider['ai-sdk']`, which the hash covers and the forward mapping
 *   sends as it is.
 * - What never changes the answer is left out and named in `leftOut`.
 *
 * A call it cannot map is `PROVIDER_UNMAPPED`, naming the option.
 */
export function canonicalOfAiSdkCall(options: unknown, model: AiSdkModelIdentity): CanonicalAiSdkCall {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw unmappedCall('call options', null, 'they are not an object', 'pass the `params` the middleware got');
  const leftOut = new Set<string>();
  const own: Record<string, JsonValue> = {};
  const { prompt, tools, maxOutputTokens, stopSequences, toolChoice, headers, providerOptions, ...rest } =
    options as Readonly<Record<string, unknown>>;
  const { system, messages } = conversationOf(prompt, { provider: model.provider, toolNames: new Map(), leftOut });
  const sampling: Record<string, number> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if ((SAMPLING as readonly string[]).includes(name)) sampling[name] = numberOf(value, name);
    else if (name === 'abortSignal' || name === 'includeRawChunks') leftOut.add(name);
    else own[name] = callJsonOf(value, name);
  }
  const canonicalTools = canonicalToolsOf(tools, own);
  if (toolChoice !== undefined) {
    const choice = callObjectOf(toolChoice, 'toolChoice');
    if (choice.type === 'auto' && Object.keys(choice).length === 1) leftOut.add('toolChoice');
    else own.toolChoice = choice;
  }
  const kept = headersKeptOf(headers, leftOut);
  if (kept !== undefined) own.headers = kept;
  let maxTokens = maxOutputTokens === undefined ? 0 : tokensOf(maxOutputTokens);
  let thinking: ModelParams['thinking'];
  if (providerOptions !== undefined) {
    const lifted = liftThinking(callObjectOf(providerOptions, 'providerOptions'), model.provider, maxTokens);
    if (lifted.providerOptions !== undefined) own.providerOptions = lifted.providerOptions;
    thinking = lifted.thinking;
    if (thinking !== undefined) maxTokens += thinking.budgetTokens;
  }
  const params: ModelParams = {
    maxTokens,
    ...sampling,
    ...(stopSequences === undefined ? {} : { stopSequences: stringsOf(stopSequences) }),
    ...(thinking === undefined ? {} : { thinking }),
    ...(Object.keys(own).length === 0 ? {} : { provider: { [AI_SDK]: own } }),
  };
  return {
    request: { model: model.modelId, system, messages, tools: canonicalTools, params },
    leftOut: [...leftOut].sort(),
  };
}

function numberOf(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw unmappedCall(field, value, 'it is not a finite number', 'give it as a number, or leave it out');
  return value;
}

function tokensOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw unmappedCall('maxOutputTokens', value, 'it is not a whole number from 1 up', 'give it so, or leave it out');
  return value;
}

function stringsOf(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string'))
    throw unmappedCall('stopSequences', value, 'it is not an array of strings', 'give it so, or leave it out');
  return value;
}
