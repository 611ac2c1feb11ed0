import type { RunRecord } from '../store/index.js';
import { hasExpired } from '../tiers/index.js';
import { redactedSummary } from './redact-summary.js';

/** Whether a run's full tier has expired at `now`, whether or not `gc` has removed it yet. */
export function fullTierExpired(run: RunRecord, now: Date): boolean {
  return run.purge !== null || hasExpired(run.expiresAt, now);
}

/**
 * A run as every read shows it at `now`: once its full tier has expired, its
 * summary's payloads (input, error message, override and what it changed,
 * findings) are shown shaped, as `gc` will leave them, whether or not `gc`
 * has run. Expiry is a rule of reading, not only of collecting.
 */
export function asReadAt(run: RunRecord, now: Date): RunRecord {
  if (run.purge !== null || !hasExpired(run.expiresAt, now)) return run;
  const redacted = redactedSummary(run);
  return {
    ...run,
    input: redacted.input,
    error: redacted.error,
    findings: redacted.findings,
    parent: run.parent === null ? null : { ...run.parent, override: redacted.override, changes: null },
  };
}
