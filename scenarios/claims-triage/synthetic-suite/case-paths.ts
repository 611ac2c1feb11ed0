/**
 * The harness paths a synthetic case can say it exercises. A case naming
 * another is refused, so that a misspelt path cannot leave one uncovered
 * unnoticed.
 */
export const CASE_PATHS = [
  'approve',
  'approve-low-confidence',
  'refer-low-confidence',
  'deny-not-covered',
  'deny-settled',
  'refer-disputed',
  'refer-over-cover-limit',
  'negative-payout-guard',
  'ocr-timeout-retried',
  'ocr-timeout-exhausted',
  'multiple-documents',
  'policy-amended',
  'decimal-reading',
  'step-cap',
] as const;

/** A harness path of the claims-triage agent. */
export type CasePath = (typeof CASE_PATHS)[number];
