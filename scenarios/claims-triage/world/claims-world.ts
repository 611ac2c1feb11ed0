import { createHash } from 'node:crypto';
import type { JsonObject, ToolHandler } from '../../../src/index.js';
import type { ClaimFacts, ClaimsCatalogue, Peril } from './claims-facts.js';
import { PRICE_LISTS } from './price-list.js';
import { readDocument } from './read-document.js';
import type { Timeline } from './timeline.js';
import { valueAt } from './timeline.js';

/** The tool backends of a claims world, by tool name: the four every build calls, and the payment desk. */
export type ClaimsTools = Readonly<
  Record<'fetch_claim' | 'ocr_document' | 'estimate_repair' | 'fetch_policy' | 'issue_payment', ToolHandler>
>;

/**
 * The tool backends of a claims world as they answer on day `at`, over the
 * claims and policies of `catalogue`: claims settle, policies get amended,
 * documents get re-scanned, the OCR service moves from model v1 to v2 and the
 * price list is revised, each on its own date. The recorded world and the
 * synthetic cases share this code, so both answer in the same shapes.
 */
export function claimsTools(catalogue: ClaimsCatalogue, at: string, delay: () => Promise<void>): ClaimsTools {
  const documents = new Map(
    catalogue.claims.flatMap((claim) =>
      claim.documents.map((document) => [document.documentId, { claim, document }] as const),
    ),
  );

  return {
    async fetch_claim(input) {
      await delay();
      const claimId = stringField(input, 'claim_id');
      const claim = catalogue.claims.find((candidate) => candidate.claimId === claimId);
      if (claim === undefined) throw new Error(`claim ${claimId} not found`);
      return {
        claim_id: claim.claimId,
        policy_id: claim.policyId,
        status: valueAt(claim.status, at),
        peril: claim.peril,
        holder: claim.holder,
        // Only when the claim has one: the recorded world's claims have none, and their outputs must not change.
        ...(claim.holderEmail === undefined ? {} : { holder_email: claim.holderEmail }),
        vehicle: claim.vehicle,
        description: claim.description,
        statement: holderStatement(claim, at),
        documents: claim.documents
          .filter((document) => document.attached === undefined || valueAt(document.attached, at))
          .map((document) => ({ document_id: document.documentId, kind: document.kind })),
      };
    },

    async ocr_document(input) {
      await delay();
      const documentId = stringField(input, 'document_id');
      const found = documents.get(documentId);
      if (found === undefined) throw new Error(`document ${documentId} not found`);
      return readDocument(found.claim, found.document, at);
    },

    async estimate_repair(input) {
      await delay();
      const area = input.damage_area_cm2;
      const peril = stringField(input, 'peril') as Peril;
      if (typeof area !== 'number' || !(area >= 0))
        throw new Error('damage_area_cm2 must be a number of square centimetres');
      const prices = valueAt(PRICE_LISTS, at);
      // hasOwn: a peril named like an Object member ("constructor") has no rate either.
      if (!Object.hasOwn(prices.perCm2, peril)) throw new Error(`no repair rate for peril ${peril}`);
      const rate = prices.perCm2[peril];
      const amount = Math.round(area * rate + prices.callOut);
      const estimateId = `EST-${createHash('sha256').update(`${area}:${peril}:${prices.name}`).digest('hex').slice(0, 8)}`;
      return { estimate_id: estimateId, amount, currency: 'EUR', price_list: prices.name };
    },

    async fetch_policy(input) {
      await delay();
      const policyId = stringField(input, 'policy_id');
      const policy = catalogue.policies.find((candidate) => candidate.policyId === policyId);
      if (policy === undefined) throw new Error(`policy ${policyId} not found`);
      const amendment = amendmentOf(policy.deductible, at);
      return {
        policy_id: policy.policyId,
        deductible: valueAt(policy.deductible, at),
        cover_limit: policy.coverLimit,
        currency: 'EUR',
        covered_perils: [...policy.covers],
        // Only once the policy has been amended: a policy never amended (or not yet) answers as it always did.
        ...(amendment === undefined ? {} : { amendment }),
      };
    },

    // Only the supervised build offers this tool. The payment id is a digest of what was paid, to whom and on
    // which day, so that a run repeated against the same world pays under the same id.
    async issue_payment(input) {
      await delay();
      const claimId = stringField(input, 'claim_id');
      const { amount, currency } = input;
      const claim = catalogue.claims.find((candidate) => candidate.claimId === claimId);
      if (claim === undefined) throw new Error(`claim ${claimId} not found`);
      const status = valueAt(claim.status, at);
      if (status !== 'open') throw new Error(`claim ${claimId} is ${status}: nothing can be paid on it`);
      if (typeof amount !== 'number' || !Number.isFinite(amount) || !(amount > 0))
        throw new Error('amount must be a positive number of euros');
      if (currency !== 'EUR') throw new Error(`payments are made in EUR, not ${JSON.stringify(currency)}`);
      const paymentId = `PAY-${createHash('sha256').update(`${claimId}:${amount}:${currency}:${at}`).digest('hex').slice(0, 8)}`;
      return { payment_id: paymentId, claim_id: claimId, amount, currency, paid_to: claim.holder, value_date: at };
    },
  };
}

/**
 * The latest amendment of a deductible in force on day `at`: the day it took
 * effect and the deductible before it; undefined while the first value holds.
 */
function amendmentOf(deductible: Timeline<number>, at: string): JsonObject | undefined {
  const index = deductible.findLastIndex((entry) => entry.from <= at);
  const entry = deductible[index];
  const before = deductible[index - 1];
  if (entry === undefined || before === undefined) return undefined;
  return { effective_from: entry.from, previous_deductible: before.value };
}

// The holder's statement as the claims office transcribes it: the narrative, anything the holder added through
// the portal that day, and the standard declarations.
function holderStatement(claim: ClaimFacts, at: string): string {
  const note = claim.statementNote === undefined ? null : valueAt(claim.statementNote, at);
  return [
    `Statement of ${claim.holder}, policy ${claim.policyId}, vehicle ${claim.vehicle}.`,
    ...(claim.holderEmail === undefined ? [] : [`The holder can be reached at ${claim.holderEmail}.`]),
    claim.description,
    ...(note === null ? [] : [`Added by the holder through the portal: ${note}`]),
    'I confirm that the vehicle was being used for social, domestic and pleasure purposes at the time, that no',
    'other insurance covers this loss, and that I have not agreed any repair or settlement with a third party.',
    'I understand that the insurer may inspect the vehicle and the repair invoices before any payment, and that',
    'a false statement may void the policy. Photographs and the assessor report are attached.',
  ].join('\n');
}

function stringField(input: JsonObject, key: string): string {
  const value = input[key];
  if (typeof value !== 'string') throw new Error(`${key} must be a string`);
  return value;
}
