import { ForkpointError } from '../errors/index.js';

/**
 * The first instant a date (`YYYY-MM-DD`, UTC) or an ISO 8601 timestamp
 * names, as the ISO text runs are stamped with (so that a listing compares
 * it as text); undefined for anything else. A date means its first instant
 * at both ends of a window, so `since D` and `until D+1` span day D.
 */
export function listingInstantOf(text: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(text)) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * {@link listingInstantOf}, or, for anything else, `USAGE` naming `flag`
 * with the line every command and page that takes a period's bound prints.
 */
export function requireListingInstant(text: string, flag: string): string {
  const instant = listingInstantOf(text);
  if (instant === undefined)
    throw new ForkpointError(
      'USAGE',
      `${flag} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp such as 2026-03-07T10:00:00Z, got "${text}"`,
    );
  return instant;
}
