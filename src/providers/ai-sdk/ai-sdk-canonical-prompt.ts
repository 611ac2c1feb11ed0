import type { Message, MessagePart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { callObjectOf, unmappedCall } from './ai-sdk-call-json.js';
import { withoutCacheMarks } from './ai-sdk-cache-marks.js';
import type { PartReading, PromptRole } from './ai-sdk-canonical-parts.js';
import { canonicalPartOf, registerToolCall } from './ai-sdk-canonical-parts.js';

/** The system prompt and the conversation of a call's prompt. */
export interface CanonicalConversation {
  readonly system: string;
  readonly messages: Message[];
}

/**
 * The canonical system prompt and messages of a call's `prompt`, the inverse
 * of the forward mapping's `promptOf` (ai-sdk-prompt.ts): a leading `system`
 * message is the system prompt; an `assistant` message is an assistant
 * message; `user` and `tool` messages are user messages, a run of them whose
 * roles alternate being one (the forward mapping splits one user message so,
 * its tool results in `tool` messages and its text in `user` ones), and two
 * of one role in a row being two. What the canonical request cannot say is
 * refused: a system message after the first message or with no text (which
 * the forward mapping cannot tell from none), a message with options of its
 * own beyond cache marks, a role the specification does not name.
 */
export function conversationOf(prompt: unknown, reading: PartReading): CanonicalConversation {
  if (!Array.isArray(prompt))
    throw unmappedCall('prompt', prompt, 'it is not an array of messages', 'pass the call options the middleware got');
  let system = '';
  const messages: Message[] = [];
  // The role of the last prompt message merged into `messages.at(-1)`, while that is a user message still open.
  let openRole: PromptRole | undefined;
  prompt.forEach((raw: unknown, i) => {
    const field = `prompt[${i}]`;
    const { role, content } = checkedMessage(callObjectOf(raw, field), field, reading.leftOut);
    if (role === 'system') {
      system = systemOf(content, i, field);
      return;
    }
    if (!isJsonArray(content))
      throw unmappedCall(`${field}.content`, content ?? null, 'it is not an array of parts', 'give it as an array');
    if (role === 'assistant') {
      content.forEach((part, j) => {
        registerToolCall(part, `${field}.content[${j}]`, reading);
      });
      messages.push({ role: 'assistant', content: partsOf(content, role, field, reading) });
      openRole = undefined;
      return;
    }
    const parts = partsOf(content, role, field, reading);
    const last = messages.at(-1);
    if (last !== undefined && openRole !== undefined && openRole !== role && parts.length > 0) {
      messages[messages.length - 1] = { role: 'user', content: [...last.content, ...parts] };
    } else {
      messages.push({ role: 'user', content: parts });
    }
    // An empty message stands alone: the forward mapping never writes one, so it is a message of its own.
    openRole = parts.length === 0 ? undefined : role;
  });
  return { system, messages };
}

const partsOf = (content: readonly JsonValue[], role: PromptRole, field: string, reading: PartReading) =>
  content.map((part, j): MessagePart => canonicalPartOf(part, role, `${field}.content[${j}]`, reading));

/** A message's role and content, once its own options are known to be cache marks at most. */
function checkedMessage(
  message: JsonObject,
  field: string,
  leftOut: Set<string>,
): { role: 'system' | PromptRole; content: JsonValue | undefined } {
  const { role, content, providerOptions, ...rest } = message;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw unmappedCall(
      `${field}.${extra}`,
      rest[extra],
      'the specification names no such message field',
      'leave it out',
    );
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
    throw unmappedCall(
      `${field}.role`,
      role ?? null,
      `${JSON.stringify(role ?? null)} is not a role of the specification`,
      'forkpoint reads system, user, assistant and tool messages',
    );
  }
  if (providerOptions !== undefined) {
    const kept = isJsonObject(providerOptions) ? withoutCacheMarks(providerOptions, leftOut) : providerOptions;
    if (!isJsonObject(kept) || Object.keys(kept).length > 0) {
      throw unmappedCall(
        `${field}.providerOptions`,
        kept,
        "forkpoint's request has no place for a whole message's own options (other than cache marks)",
        "set them on the message's parts, or on the call's providerOptions",
      );
    }
  }
  return { role, content };
}

function systemOf(content: JsonValue | undefined, index: number, field: string): string {
  if (index !== 0) {
    throw unmappedCall(
      field,
      content ?? null,
      "it is a system message after the conversation began, and forkpoint's request has one system prompt, first",
      'put all system text in the one system prompt (generateText `system`)',
    );
  }
  if (typeof content !== 'string' || content === '') {
    throw unmappedCall(
      `${field}.content`,
      content ?? null,
      'a system message holds text, and an empty one cannot be told apart from none',
      'give the system prompt text, or leave it out',
    );
  }
  return content;
}
