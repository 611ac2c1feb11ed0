import type { ErrorCode, JsonValue } from '../../../src/index.js';
import { ERROR_CODES } from '../../../src/index.js';
import type { CaseReader } from './case-reader.js';

/** The payout range an approval must fall in, both ends included. */
export interface PayoutRange {
  readonly min: number;
  readonly max: number;
}

/** What a case expects: a decision (an approval with its payout range), or a run that fails with a code. */
export type Expectation =
  | { readonly kind: 'decision'; readonly decision: 'approve'; readonly payout: PayoutRange }
  | { readonly kind: 'decision'; readonly decision: 'refer' | 'deny' }
  | { readonly kind: 'failure'; readonly code: ErrorCode };

/** The fields `expected` may have; which combinations are valid is {@link readExpectation}'s business. */
export const EXPECTED_FIELDS = ['decision', 'payout', 'failure'] as const;

/**
 * Reads a case's `expected`: `{ decision: "approve", payout: { min, max } }`,
 * `{ decision: "refer" }`, `{ decision: "deny" }` or `{ failure: "<code>" }`.
 */
export function readExpectation(reader: CaseReader, value: JsonValue | undefined): Expectation {
  const fields = reader.object(value, 'expected', [], EXPECTED_FIELDS);
  if (fields.failure !== undefined) {
    if (fields.decision !== undefined || fields.payout !== undefined)
      reader.fail('expected', 'gives a failure and a decision: give one');
    return { kind: 'failure', code: reader.oneOf(fields.failure, 'expected.failure', ERROR_CODES) };
  }
  if (fields.decision === undefined) {
    reader.fail(
      'expected',
      'gives neither a decision nor a failure: write { "decision": "approve" | "refer" | "deny" } or { "failure": "<code>" }',
    );
  }
  const decision = reader.oneOf(fields.decision, 'expected.decision', ['approve', 'refer', 'deny'] as const);
  if (decision !== 'approve') {
    if (fields.payout !== undefined)
      reader.fail('expected.payout', `is given for a ${decision}, which pays nothing: remove it`);
    return { kind: 'decision', decision };
  }
  const payout = reader.object(fields.payout, 'expected.payout', ['min', 'max']);
  // A negative payout is never accepted: the harness fails that run, which a case expects as { failure: "VALIDATION_FAILED" }.
  const min = reader.number(payout.min, 'expected.payout.min', { min: 0 });
  const max = reader.number(payout.max, 'expected.payout.max', { min });
  return { kind: 'decision', decision, payout: { min, max } };
}

/** The expectation in a few words: `approve, payout 340-342`, `refer`, `failed: VALIDATION_FAILED`. */
export function describeExpectation(expectation: Expectation): string {
  if (expectation.kind === 'failure') return `failed: ${expectation.code}`;
  if (expectation.decision !== 'approve') return expectation.decision;
  const { min, max } = expectation.payout;
  return `approve, payout ${min === max ? min : `${min}-${max}`}`;
}
