import type { JsonValue } from '../json/index.js';
import { parseJsonInput } from '../json/index.js';
import { unmappedResponse } from './provider-errors.js';

/** One event of a server-sent event stream: its `event:` name when it has one, and its data lines joined. */
export interface SseEvent {
  /** The event's type; absent when the stream named none (the spec's default, `message`). */
  readonly event?: string;
  readonly data: string;
}

/**
 * The events of a whole server-sent event stream, read by the field rules of
 * the HTML standard's `text/event-stream` (the rules the Anthropic, OpenAI
 * and AI SDK clients follow), so that what forkpoint assembles from a
 * recorded stream is what the SDK read from it:
 * - lines end with CRLF, LF or CR; one byte order mark at the very start is skipped;
 * - a line starting with `:` is a comment; `name: value` sets a field (one space after the colon dropped), a
 *   line with no colon is a field with the empty value;
 * - `data` lines are joined with `\n`; `event` names the event (the empty name is no name); `id`, `retry` and
 *   any other field say nothing about the payload and are passed over;
 * - a blank line dispatches the event, unless it had no `data` line at all;
 * - an event the stream ends inside, with no blank line after it, is never dispatched: the spec discards it, as
 *   the SDKs' readers do, so a stream cut mid-event does not read as a whole one.
 */
export function parseSseText(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // The last piece is what follows the last line ending: a line the stream ended inside, never completed.
  const lines = body.split(/\r\n|\r|\n/);
  lines.pop();
  let name = '';
  let data: string[] | undefined;
  for (const line of lines) {
    if (line === '') {
      if (data !== undefined)
        events.push(name === '' ? { data: data.join('\n') } : { event: name, data: data.join('\n') });
      name = '';
      data = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') name = value;
    else if (field === 'data') (data ??= []).push(value);
  }
  return events;
}

/**
 * The JSON an event's data carries, for a stream whose every event is JSON (the Anthropic and OpenAI APIs'):
 * `PROVIDER_UNMAPPED` naming the event by its position when it is not JSON, nested no deeper than any input.
 */
export function sseJsonOf(event: SseEvent, position: number, provider: string): JsonValue {
  try {
    return parseJsonInput(event.data, `event ${position} of the stream`, 'PROVIDER_UNMAPPED');
  } catch (error) {
    throw unmappedResponse(provider, `event ${position} of the stream`, event.data, messageOf(error));
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
