import type { JsonValue } from '../../../src/json/index.js';

// Written from the SSE wire format (the HTML standard's text/event-stream), not from forkpoint's parser.

/** One event as a server writes it: its name line when it has one, its data on one line, then a blank line. */
export const sseEventText = (data: JsonValue | string, name?: string): string =>
  `${name === undefined ? '' : `event: ${name}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/**
 * `text` cut into `count` pieces or fewer, none empty, never inside a character: how a model's text arrives,
 * a delta at a time. The empty text is no piece at all.
 */
export function piecesOf(text: string, count: number): string[] {
  const characters = Array.from(text);
  const size = Math.max(1, Math.ceil(characters.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += size)
    pieces.push(characters.slice(start, start + size).join(''));
  return pieces;
}
