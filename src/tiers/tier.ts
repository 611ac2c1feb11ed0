import { instantOf } from '../time/index.js';

/** How long a full recording may be kept unless its store says otherwise: the chapter's 72 hours. */
export const FULL_RETENTION_HOURS = 72;

/** How long a structural record may be kept unless its store says otherwise: the chapter's 90 days. */
export const STRUCTURAL_RETENTION_DAYS = 90;

const HOUR_MS = 3_600_000;

/** When the full tier of something recorded at `recordedAt` expires, kept `hours`. */
export const fullExpiryOf = (recordedAt: Date, hours: number = FULL_RETENTION_HOURS): string =>
  new Date(recordedAt.getTime() + hours * HOUR_MS).toISOString();

/** When the structural tier of something recorded at `recordedAt` expires, kept `days`. */
export const structuralExpiryOf = (recordedAt: Date, days: number = STRUCTURAL_RETENTION_DAYS): string =>
  new Date(recordedAt.getTime() + days * 24 * HOUR_MS).toISOString();

/** The earlier of two expiries, where null means never. */
export function earlierExpiry(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  // As instants: `…+09:00` and `…Z` do not sort as text. One that is no instant at all counts as already past.
  return (instantOf(a) ?? Number.NEGATIVE_INFINITY) <= (instantOf(b) ?? Number.NEGATIVE_INFINITY) ? a : b;
}

/**
 * True when `expiresAt` (null: never) has passed at `now`. Compared as
 * instants, so `+09:00` and `Z` forms of one time agree; a timestamp that is
 * not ISO 8601 counts as expired, since nothing says when it ends.
 */
export const hasExpired = (expiresAt: string | null, now: Date): boolean => {
  if (expiresAt === null) return false;
  const instant = instantOf(expiresAt);
  return instant === undefined || instant <= now.getTime();
};
