import type { Message, MessagePart, ModelParams, ModelRequest, ToolResultPart } from '../../conversation/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';
import type { AiSdkCallOptions, AiSdkLanguageModel } from './ai-sdk-model.js';
import { promptPartsOfProviderPart } from './ai-sdk-provider-parts.js';
import { ownParams } from '../own-params.js';

/** The name a request's own AI SDK call options go under (`params.provider['ai-sdk']`). */
export const AI_SDK = 'ai-sdk';

/** `doGenerate`'s call options: the prompt typed, and every option plain JSON. */
export type AiSdkCall = AiSdkCallOptions & JsonObject;

/**
 * The call options of a neutral request. `params.provider['ai-sdk']` holds call options
 * in the specification's own names (`providerOptions`, `toolChoice`, `seed`,
 * ...) and goes in first, so an option the neutral params name is the neutral
 * one; each optional parameter is sent only when set.
 */
export function callOptionsOf(request: ModelRequest, model: AiSdkLanguageModel): AiSdkCall {
  const { params } = request;
  return {
    ...ownParams(params, AI_SDK),
    prompt: promptOf(request, model.provider),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function',
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
          })),
        }),
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.topP === undefined ? {} : { topP: params.topP }),
    ...(params.topK === undefined ? {} : { topK: params.topK }),
    ...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
    ...sizeOf(params, model.provider),
  };
}

const isAnthropic = (provider: string): boolean => provider === 'anthropic' || provider.startsWith('anthropic.');

/**
 * `maxOutputTokens`, and a thinking budget. The specification has no option
 * for the budget; @ai-sdk/anthropic reads it from
 * `providerOptions.anthropic.thinking` and adds it to `max_tokens`
 * (anthropic-messages-language-model.ts: `max_tokens = maxTokens +
 * thinkingBudget`), so the budget is taken off `maxOutputTokens` there, and
 * the wire says `max_tokens` = `params.maxTokens` as the neutral params mean
 * (thinking counts toward it). Another provider's budget has no name this
 * adapter knows: it goes in `params.provider['ai-sdk'].providerOptions`.
 */
function sizeOf(params: ModelParams, provider: string): JsonObject {
  if (params.thinking === undefined) return { maxOutputTokens: params.maxTokens };
  if (!isAnthropic(provider)) {
    throw new ForkpointError(
      'USAGE',
      `params.thinking has no AI SDK option ${provider} reads: set its own in params.provider['ai-sdk'].providerOptions instead`,
    );
  }
  const own = ownParams(params, AI_SDK);
  const options = isJsonObject(own.providerOptions) ? own.providerOptions : {};
  const anthropic = isJsonObject(options.anthropic) ? options.anthropic : {};
  const { budgetTokens } = params.thinking;
  return {
    maxOutputTokens: params.maxTokens - budgetTokens,
    providerOptions: { ...options, anthropic: { ...anthropic, thinking: { type: 'enabled', budgetTokens } } },
  };
}

function promptOf(request: ModelRequest, provider: string): JsonObject[] {
  // A tool result names its call by id; the prompt wants the tool's name too, which the call gave.
  const toolNames = new Map<string, string>();
  const prompt: JsonObject[] = request.system === '' ? [] : [{ role: 'system', content: request.system }];
  for (const message of request.messages) {
    if (message.role === 'user') {
      prompt.push(...userMessagesOf(message, toolNames));
      continue;
    }
    for (const part of message.content) if (part.type === 'tool_use') toolNames.set(part.id, part.name);
    prompt.push({
      role: 'assistant',
      content: message.content.flatMap((part) => assistantPartsOf(part, provider, toolNames)),
    });
  }
  return prompt;
}

/**
 * A neutral user message as the prompt's messages: its tool results go in a
 * `tool` message, its text in a `user` one, in the order the parts come.
 */
function userMessagesOf(message: Message, toolNames: ReadonlyMap<string, string>): JsonObject[] {
  const messages: { role: 'user' | 'tool'; content: JsonObject[] }[] = [];
  for (const part of message.content) {
    const role = part.type === 'tool_result' ? 'tool' : 'user';
    const prompted = userPartOf(part, toolNames);
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(prompted);
    else messages.push({ role, content: [prompted] });
  }
  return messages;
}

function userPartOf(part: MessagePart, toolNames: ReadonlyMap<string, string>): JsonObject {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'tool_result') return toolResultOf(part, toolNames);
  throw new ForkpointError(
    'USAGE',
    `a user message holds a ${part.type} part, which the AI SDK's prompt has no place for`,
  );
}

function assistantPartsOf(part: MessagePart, provider: string, toolNames: ReadonlyMap<string, string>): JsonObject[] {
  switch (part.type) {
    case 'text':
      return [
        {
          type: 'text',
          text: part.text,
          ...(part.citations === undefined ? {} : { providerOptions: { anthropic: { citations: part.citations } } }),
        },
      ];
    // Reasoning goes back with its opaque token where @ai-sdk/anthropic reads it
    // (convert-to-anthropic-messages-prompt.ts: providerOptions.anthropic.signature, .redactedData).
    case 'thinking':
      return [
        { type: 'reasoning', text: part.thinking, providerOptions: { anthropic: { signature: part.signature } } },
      ];
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: part.data } } }];
    case 'tool_use':
      return [{ type: 'tool-call', toolCallId: part.id, toolName: part.name, input: part.input }];
    case 'tool_result':
      return [toolResultOf(part, toolNames)];
    case 'provider':
      return promptPartsOfProviderPart(part, provider);
  }
}

/**
 * A tool result: a string as `text`, any other JSON as `json` (an error as
 * `error-text` or `error-json`), both of which v2 and v3 have.
 */
function toolResultOf(part: ToolResultPart, toolNames: ReadonlyMap<string, string>): JsonObject {
  const toolName = toolNames.get(part.toolUseId);
  if (toolName === undefined) {
    throw new ForkpointError('USAGE', `a tool result answers call ${part.toolUseId}, which no earlier message makes`);
  }
  const text = typeof part.content === 'string';
  const type = part.isError ? (text ? 'error-text' : 'error-json') : text ? 'text' : 'json';
  return { type: 'tool-result', toolCallId: part.toolUseId, toolName, output: { type, value: part.content } };
}
