import type { MessagePart, ModelRequest } from '../../conversation/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';

/** The kind of the part that keeps a `Message`'s own fields the neutral response has no name for. */
export const ENVELOPE = 'message_envelope';

// A Message's fields beside its content that the neutral response has no name for: which stop sequence it wrote,
// the details of its stop, and the code-execution container it ran in (whose id the next request must name).
const ENVELOPE_FIELDS = ['stop_sequence', 'stop_details', 'container'] as const;

/**
 * A `Message`'s own fields that the neutral shape has no name for, when it
 * has any that are set, as an Anthropic part at the end of its content: kept
 * verbatim with the turn, so nothing the API said is lost, and read back
 * when the next request is built (`containerOf`). Never sent as a block.
 */
export function envelopePartOf(message: JsonObject, provider: string): MessagePart | undefined {
  const fields: Record<string, JsonValue> = {};
  for (const name of ENVELOPE_FIELDS) {
    const value = message[name];
    if (value !== undefined && value !== null) fields[name] = value;
  }
  if (Object.keys(fields).length === 0) return undefined;
  return { type: 'provider', provider, block: { type: ENVELOPE, ...fields } };
}

/** True for the part that keeps a Message's own fields: it goes back as request fields, never as a block. */
export const isEnvelope = (part: MessagePart): boolean => part.type === 'provider' && part.block.type === ENVELOPE;

/**
 * The code-execution container the conversation last ran in, as the next
 * request must name it (`container`), read from the latest envelope that has
 * one; undefined when no turn ran in a container.
 */
export function containerOf(request: ModelRequest): string | undefined {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    for (const part of request.messages[i]?.content ?? []) {
      if (!isEnvelope(part) || part.type !== 'provider') continue;
      const { container } = part.block;
      if (isJsonObject(container) && typeof container.id === 'string') return container.id;
    }
  }
  return undefined;
}
