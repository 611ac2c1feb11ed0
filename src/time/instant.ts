// ISO 8601 as forkpoint reads instants: a date and a time with seconds, an optional fraction, and a zone.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant an ISO 8601 timestamp names, in milliseconds since the epoch;
 * undefined for anything else (an RFC 2822 date, a date without a zone),
 * which `Date.parse` would read in whatever way it likes.
 */
export function instantOf(timestamp: string): number | undefined {
  if (!INSTANT.test(timestamp)) return undefined;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}
