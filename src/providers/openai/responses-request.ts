import { responsesLeaveOut } from './openai-left-out.js';
import type { Message, ModelRequest, TextPart } from '../../conversation/index.js';
import type { JsonObject } from '../../json/index.js';
import { isJsonArray } from '../../json/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { ResponsesBody } from './openai-clients.js';
import { providerParamsOf, samplingOf } from './openai-params.js';
import { isFunctionCallRest, isMessageRest } from './responses-items.js';
import { resultText } from './wire-reading.js';

// Reasoning items come back with their encrypted content, so that the next request can send them back: with
// store: false, the server keeps nothing to look them up by.
const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/**
 * A neutral request as the body of `POST /responses`, stateless: `store: false`, and the whole conversation as
 * `input` on every call (never a `previous_response_id`), so that a recorded prefix replays and forks with
 * nothing kept on OpenAI's side. `include` always asks for `reasoning.encrypted_content`, added to any the
 * request's `params.provider.openai` names.
 * - the system prompt as `instructions` (none when it is empty);
 * - user text as a user message item (`input_text`); tool results as `function_call_output` items (`call_id`,
 *   `output` a string as it is and any other JSON as its text), before the turn's text;
 * - an assistant turn as the items it came as: its text as a message item (`output_text`, its citations as
 *   `annotations`), its tool calls as `function_call` items (`call_id`, `name`, `arguments` the input's JSON
 *   text), each rebuilt with the rest of its item (`id`, `status`, `phase`) when the response kept it (see
 *   `responsesResponseOf`); reasoning items and any other OpenAI item verbatim;
 * - tools as function tools, `strict: false` (the API's strict mode rewrites what a schema allows; forkpoint
 *   sends the agent's schemas as they are written);
 * - `max_output_tokens` (reasoning included), temperature and top_p when set, then `params.provider.openai` verbatim.
 *
 * Thinking and redacted-thinking parts, and another provider's parts, cannot be sent to OpenAI: they are left
 * out (a run forked from Anthropic to OpenAI holds them).
 */
export function responsesBodyOf(request: ModelRequest): ResponsesBody {
  const sampling = samplingOf(request.params, 'responses');
  const { include, ...provider } = providerParamsOf(request.params, 'responses');
  const input: JsonObject[] = [];
  for (const message of request.messages)
    input.push(...(message.role === 'user' ? userItems(message) : assistantItems(message)));
  const tools = request.tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
  return {
    model: request.model,
    ...(request.system === '' ? {} : { instructions: request.system }),
    input,
    ...(tools.length === 0 ? {} : { tools }),
    max_output_tokens: request.params.maxTokens,
    ...sampling,
    ...provider,
    store: false,
    include: includesOf(include),
  };
}

function includesOf(asked: JsonObject[string] | undefined): string[] {
  if (asked === undefined) return [ENCRYPTED_REASONING];
  if (!isJsonArray(asked) || !asked.every((item) => typeof item === 'string'))
    throw new ForkpointError('USAGE', 'fromOpenAIResponses: params.provider.openai.include must be a list of strings');
  return [...new Set<string>([...asked, ENCRYPTED_REASONING])];
}

function userItems(message: Message): JsonObject[] {
  const outputs: JsonObject[] = [];
  const texts: TextPart[] = [];
  for (const part of message.content) {
    if (part.type === 'tool_result')
      outputs.push({ type: 'function_call_output', call_id: part.toolUseId, output: resultText(part.content) });
    else if (part.type === 'text') texts.push(part);
  }
  if (texts.length === 0) return outputs;
  const content = texts.map((part) => ({ type: 'input_text', text: part.text }));
  return [...outputs, { type: 'message', role: 'user', content }];
}

// An assistant message item with no rest kept: what a turn written elsewhere (another provider, a fork) becomes.
const ASSISTANT: JsonObject = { type: 'message', role: 'assistant' };

type Pending =
  | { readonly kind: 'item'; readonly item: JsonObject }
  | { readonly kind: 'message'; readonly envelope: JsonObject; readonly content: JsonObject[] };

/**
 * An assistant turn's parts back as items, in their order. The rest of a message or function-call item comes
 * just before the parts made from it: it is held, and given to the next text or tool call; text that follows
 * text with no rest between goes into the same message item.
 */
function assistantItems(message: Message): JsonObject[] {
  const pending: Pending[] = [];
  let rest: JsonObject | undefined;
  // What the API cannot take is left out by the one rule `leavesOut` reports (responsesLeaveOut).
  for (const part of message.content.filter((candidate) => !responsesLeaveOut(candidate))) {
    switch (part.type) {
      case 'text': {
        const text: JsonObject = { type: 'output_text', text: part.text, annotations: part.citations ?? [] };
        const last = pending.at(-1);
        if (last?.kind === 'message' && rest === undefined) last.content.push(text);
        else {
          const envelope = rest !== undefined && isMessageRest(rest) ? rest : ASSISTANT;
          pending.push({ kind: 'message', envelope, content: [text] });
        }
        rest = undefined;
        break;
      }
      case 'tool_use': {
        const envelope = rest !== undefined && isFunctionCallRest(rest) ? rest : { type: 'function_call' };
        const call = { ...envelope, call_id: part.id, name: part.name, arguments: JSON.stringify(part.input) };
        pending.push({ kind: 'item', item: call });
        rest = undefined;
        break;
      }
      case 'provider':
        if (isMessageRest(part.block) || isFunctionCallRest(part.block)) rest = part.block;
        else pending.push({ kind: 'item', item: part.block });
        break;
      default:
      // A tool result is never the model's.
    }
  }
  return pending.map((entry) => (entry.kind === 'item' ? entry.item : { ...entry.envelope, content: entry.content }));
}
