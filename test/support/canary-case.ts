import { readFileSync } from 'node:fs';
import type { JsonObject } from '../../src/json/index.js';
import { parseJsonInput } from '../../src/json/index.js';

/**
 * The synthetic hail claim with strings that must not survive their tier planted in it: `canaries` are a
 * holder's name, their email and a policy number, in that order.
 */
export function cannedCase(canaries: readonly string[]): JsonObject {
  const data = parseJsonInput(
    readFileSync('scenarios/claims-triage/synthetic/syn-01-hail-approve.json', 'utf8'),
    'syn-01',
  ) as JsonObject;
  const claim = data.claim as JsonObject;
  const policy = data.policy as JsonObject;
  const [holder = '', holderEmail = '', policyId = ''] = canaries;
  return { ...data, claim: { ...claim, holder, holderEmail, policyId }, policy: { ...policy, policyId } };
}
