import type { MessagePart } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonArray, isJsonObject } from '../../json/index.js';
import { unmappedResponse } from '../provider-errors.js';
import { arrayAt, objectAt, OPENAI, parseArguments, stringAt, without } from './wire-reading.js';

// A message or function-call item carries more than its neutral parts hold: its own `id` (`msg_...`, `fc_...`),
// its `status`, a message's `phase`. The next request needs them: newer reasoning models pair a function call
// with the reasoning item before it by that id, and the SDK asks that `phase` be sent back on every assistant
// message. So an item is split: its neutral parts (text, a tool call whose id is the `call_id`), and just
// before them an OpenAI provider part holding the rest of the item verbatim. A rest is told from a whole item
// by what it lacks: a message item always has `content`, a function call its `call_id`. The request hash sees
// the rest's `id` aliased by position, as every provider part's, so two runs asking the same thing hash alike.

const MESSAGE_PARTS = ['content'];
const FUNCTION_CALL_PARTS = ['call_id', 'name', 'arguments'];

/** True for the rest of a message item, its content taken out. */
export const isMessageRest = (block: JsonObject): boolean => block.type === 'message' && !('content' in block);

/** True for the rest of a function-call item, its call taken out. */
export const isFunctionCallRest = (block: JsonObject): boolean =>
  block.type === 'function_call' && !('call_id' in block);

/** The neutral parts of one output item, and what it says about the turn. */
export interface ItemParts {
  readonly parts: readonly MessagePart[];
  /** The item is a message that refuses (a `refusal` content part). */
  readonly refused: boolean;
}

/**
 * One item of a response's `output` in the neutral shape:
 * - a message: its rest, then each `output_text` as a text part (its `annotations` as the part's citations)
 *   and each `refusal` as a text part holding the refusal;
 * - a function call: its rest, then a tool-use part whose id is the `call_id` (what a `function_call_output`
 *   names), its arguments string parsed (`PROVIDER_UNMAPPED` when it is not a JSON object);
 * - a reasoning item, and any item of a kind this adapter does not know (a hosted tool's call, a kind OpenAI
 *   adds later): an OpenAI provider part holding it verbatim, to be sent back as it came. A reasoning item is
 *   not made a redacted-thinking part: its summary is readable text, and its `id`, `status` and
 *   `encrypted_content` would have to be packed into one opaque string that another provider would then be sent.
 */
export function partsOfItem(value: JsonValue, field: string): ItemParts {
  const item = objectAt(value, field);
  if (item.type === 'message') return messageParts(item, field);
  if (item.type === 'function_call')
    return { parts: [...restOf(item, FUNCTION_CALL_PARTS), toolUseOf(item, field)], refused: false };
  return { parts: [{ type: 'provider', provider: OPENAI, block: item }], refused: false };
}

function messageParts(item: JsonObject, field: string): ItemParts {
  const parts: MessagePart[] = [...restOf(item, MESSAGE_PARTS)];
  let refused = false;
  arrayAt(item.content, `${field}.content`).forEach((value, i) => {
    const where = `${field}.content[${i}]`;
    const content = objectAt(value, where);
    if (content.type === 'output_text') {
      const citations = isJsonArray(content.annotations) ? content.annotations.filter(isJsonObject) : [];
      const text = stringAt(content.text, `${where}.text`);
      parts.push(citations.length === 0 ? { type: 'text', text } : { type: 'text', text, citations });
    } else if (content.type === 'refusal') {
      parts.push({ type: 'text', text: stringAt(content.refusal, `${where}.refusal`) });
      refused = true;
    } else {
      throw unmappedResponse(OPENAI, where, content, 'a message holds output_text and refusal parts only');
    }
  });
  return { parts, refused };
}

// The rest of an item, as a provider part, when there is any: an item with nothing but its kind needs none.
function restOf(item: JsonObject, taken: readonly string[]): MessagePart[] {
  const rest = without(item, taken);
  const worth = Object.keys(rest).some((key) => key !== 'type' && key !== 'role');
  return worth ? [{ type: 'provider', provider: OPENAI, block: rest }] : [];
}

function toolUseOf(item: JsonObject, field: string): MessagePart {
  return {
    type: 'tool_use',
    id: stringAt(item.call_id, `${field}.call_id`),
    name: stringAt(item.name, `${field}.name`),
    input: parseArguments(stringAt(item.arguments, `${field}.arguments`), `${field}.arguments`),
  };
}
