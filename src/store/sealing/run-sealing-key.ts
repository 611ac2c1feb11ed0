import { sealingKeyFor } from '../../cassette/index.js';

/**
 * The key id a run's payloads are sealed under at rest: its tier key
 * (`full:YYYY-MM-DD`, see `sealingKeyFor`) when it is a full-tier run with an
 * expiry; null (plain text) otherwise: a run kept for good, or one whose rows
 * hold shapes or hand-written cases only, has nothing to shred.
 */
export function sealingKeyIdOf(run: { readonly tier: string; readonly expiresAt: string | null }): string | null {
  return run.tier === 'full' && run.expiresAt !== null ? sealingKeyFor(run.expiresAt).id : null;
}

/**
 * Whether a blob sealed under `current` must be sealed again under
 * `candidate`, so that it stays readable as long as the longest-lived run that
 * stored it: when `candidate` is deleted later (a later day), or never (null,
 * plain). A plain blob stays plain. Key ids of one tier order by their day.
 */
export function outlives(candidate: string | null, current: string | null): boolean {
  if (current === null) return false;
  return candidate === null || candidate > current;
}
