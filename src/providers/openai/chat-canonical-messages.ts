import type { Message, MessagePart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import {
  contentParts,
  openAIPart,
  requestObjectAt,
  restOfMessage,
  toolCallPart,
  toolResultContent,
  verbatimMessage,
} from './chat-canonical-parts.js';
import { unmappedChatRequest } from './chat-wire-refusal.js';

/** A Chat Completions `messages` list as the canonical system prompt and conversation. */
export interface ChatConversation {
  readonly system: string;
  /** Set when the system prompt came as a `developer` message, which the canonical `system` alone cannot say. */
  readonly systemRole?: 'developer';
  readonly messages: Message[];
}

// Roles the API documents that the canonical conversation has no place for: each such message is kept whole.
const VERBATIM_ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'function']);

/**
 * The inverse of how `chatBodyOf` writes a conversation:
 * - a first message `{ role: 'system' | 'developer', content }` with non-empty string content and nothing else
 *   is the system prompt (an empty one, or one in parts, is kept whole: it is not what `chatBodyOf` writes);
 * - a run of `tool` messages is one user turn of tool results (`chatBodyOf` writes a turn's results so), each
 *   `{ toolUseId: tool_call_id, content, isError: false }`: the API has no error flag, the content says it;
 * - a `user` message is a user turn, an `assistant` message an assistant turn: fields besides their content
 *   first, as one `message_fields` part; then the text (a string content's `annotations` as its citations, as
 *   `chatResponseOf` reads them); then an earlier audio answer by its id; then the tool calls;
 * - any other `system`, `developer` or `function` message is a user turn holding that message verbatim.
 * A role the API does not document is refused.
 */
export function conversationOf(wire: readonly JsonValue[]): ChatConversation {
  const list = wire.map((value, i) => requestObjectAt(value, `messages[${i}]`));
  const [first] = list;
  const prompt = first === undefined ? undefined : systemPromptOf(first);
  const messages: Message[] = [];
  let results: MessagePart[] | undefined;
  list.forEach((message, i) => {
    if (i === 0 && prompt !== undefined) return;
    const field = `messages[${i}]`;
    const { role } = message;
    if (role === 'tool') {
      const part = toolResultOf(message, field);
      if (results === undefined) {
        results = [part];
        messages.push({ role: 'user', content: results });
      } else results.push(part);
      return;
    }
    results = undefined;
    if (role === 'user') messages.push({ role: 'user', content: userContent(message, field) });
    else if (role === 'assistant') messages.push({ role: 'assistant', content: assistantContent(message, field) });
    else if (typeof role === 'string' && VERBATIM_ROLES.has(role))
      messages.push({ role: 'user', content: [verbatimMessage(message)] });
    else
      throw unmappedChatRequest(
        `${field}.role`,
        role,
        'a message is from system, developer, user, assistant, tool or function',
      );
  });
  if (prompt === undefined) return { system: '', messages };
  return prompt.role === 'developer'
    ? { system: prompt.content, systemRole: 'developer', messages }
    : { system: prompt.content, messages };
}

function systemPromptOf(message: JsonObject): { role: 'system' | 'developer'; content: string } | undefined {
  const { role, content } = message;
  if ((role !== 'system' && role !== 'developer') || typeof content !== 'string' || content === '') return undefined;
  return Object.keys(message).length === 2 ? { role, content } : undefined;
}

function toolResultOf(message: JsonObject, field: string): MessagePart {
  const { tool_call_id: id, content } = message;
  if (typeof id !== 'string') throw unmappedChatRequest(`${field}.tool_call_id`, id, 'it is not a string');
  if (typeof content !== 'string' || Object.keys(message).length !== 3) return verbatimMessage(message);
  return { type: 'tool_result', toolUseId: id, content: toolResultContent(content), isError: false };
}

function userContent(message: JsonObject, field: string): MessagePart[] {
  const { content } = message;
  if (content === undefined) throw unmappedChatRequest(`${field}.content`, content, 'a user message has content');
  return [...restOfMessage(message, ['role', 'content']), ...contentParts(content, 'user', `${field}.content`)];
}

function assistantContent(message: JsonObject, field: string): MessagePart[] {
  const { content, annotations, audio, tool_calls: calls } = message;
  const taken = ['role', 'content', 'tool_calls'];
  let texts: MessagePart[] = [];
  if (typeof content === 'string') {
    const citations = isJsonArray(annotations) && annotations.every(isJsonObject) ? annotations : undefined;
    if (citations !== undefined) taken.push('annotations');
    texts = [
      citations === undefined || citations.length === 0
        ? { type: 'text', text: content }
        : { type: 'text', text: content, citations },
    ];
  } else if (content !== undefined && content !== null) {
    texts = contentParts(content, 'assistant', `${field}.content`);
  }
  if (isJsonArray(annotations) && annotations.length === 0) taken.push('annotations');
  const audioId =
    isJsonObject(audio) && typeof audio.id === 'string' && Object.keys(audio).length === 1 ? audio.id : undefined;
  if (audioId !== undefined) taken.push('audio');
  if (calls !== undefined && calls !== null && !isJsonArray(calls))
    throw unmappedChatRequest(`${field}.tool_calls`, calls, 'it is not a list');
  const toolCalls = (calls ?? []).map((call, i) => toolCallPart(call, `${field}.tool_calls[${i}]`));
  return [
    ...restOfMessage(message, taken),
    ...texts,
    ...(audioId === undefined ? [] : [openAIPart({ type: 'audio', id: audioId })]),
    ...toolCalls,
  ];
}
