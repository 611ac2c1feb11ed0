import type { JsonObject, JsonValue, Scenario } from '../../src/index.js';
import { isJsonObject as isObject } from '../../src/index.js';
import { jsonText } from './json-text.js';

/** How claims-triage runs read in human output: tool answers, and decisions. */
export const claimsSummarize: NonNullable<Scenario['summarize']> = {
  response: summarizeClaimsResponse,
  outcome: summarizeClaimsOutcome,
  verdict: (outcome) => (typeof outcome.decision === 'string' ? outcome.decision : undefined),
};

/** A decision in one line: `approve, payout 1795: reason`; undefined for an outcome that is not a decision. */
export function summarizeClaimsOutcome(outcome: JsonObject): string | undefined {
  const { decision, payout, reason } = outcome;
  if (typeof decision !== 'string') return undefined;
  const pay = typeof payout === 'number' ? `, payout ${payout}` : '';
  return `${decision}${pay}${typeof reason === 'string' ? `: ${reason}` : ''}`;
}

/** One-line summaries of claims-triage responses for the human output. */
export function summarizeClaimsResponse(kind: string, response: JsonValue): string | undefined {
  if (!isObject(response)) return undefined;
  if (kind === 'model') return undefined;
  const output = response.output;
  if (!isObject(output)) return undefined;
  if (response.isError === true) return `error: ${jsonText(output.error)}`;
  switch (kind) {
    case 'fetch_claim':
      return `${jsonText(output.claim_id)} ${jsonText(output.status)}, ${jsonText(output.peril)}, ${Array.isArray(output.documents) ? output.documents.length : 0} documents`;
    case 'ocr_document': {
      const fields = isObject(output.fields) ? output.fields : {};
      const area = fields.damage_area_cm2;
      const reading = isObject(area)
        ? `damage_area_cm2 ${jsonText(area.value)} @ ${jsonText(area.confidence)}`
        : 'no damage area';
      return `${jsonText(output.document_id)}: ${reading} (ocr ${jsonText(output.ocr_model)})`;
    }
    case 'estimate_repair':
      return `${jsonText(output.estimate_id)}: ${jsonText(output.currency)} ${jsonText(output.amount)}`;
    case 'issue_payment':
      return `${jsonText(output.payment_id)}: ${jsonText(output.currency)} ${jsonText(output.amount)}${output.simulated === true ? ' (simulated)' : ` to ${jsonText(output.paid_to)}`}`;
    case 'fetch_policy':
      return `${jsonText(output.policy_id)}: deductible ${jsonText(output.deductible)}, cover ${jsonText(output.cover_limit)} ${jsonText(output.currency)}`;
  }
  return undefined;
}
