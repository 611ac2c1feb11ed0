import { createHash } from 'node:crypto';
import type { JsonObject, ToolHandler } from '../../../src/index.js';
import type { ClaimFacts, DocumentFacts, Peril } from './claims-data.js';
import { CLAIMS, OCR_V2_FROM, POLICIES } from './claims-data.js';
import type { Timeline } from './timeline.js';
import { valueAt } from './timeline.js';

/** Repair rates in EUR per cm² of damage, by price list. The list was revised on 8 March. */
interface PriceList {
  readonly name: string;
  readonly callOut: number;
  readonly perCm2: Readonly<Record<Peril, number>>;
}

const PRICE_LISTS: Timeline<PriceList> = [
  { from: '0000-01-01', value: { name: 'PL-2026-01', callOut: 40, perCm2: { hail: 1.1, collision: 1.3, storm: 1.2, fire: 1.6, flood: 2.0 } } },
  { from: '2026-03-08', value: { name: 'PL-2026-03', callOut: 45, perCm2: { hail: 1.15, collision: 1.35, storm: 1.25, fire: 1.65, flood: 2.1 } } },
];

/** Finds a claim by id. */
export const findClaim = (claimId: string): ClaimFacts | undefined => CLAIMS.find((claim) => claim.claimId === claimId);

/**
 * The tool backends of the claims-triage world as they answer on day `at`:
 * claims settle, policies get amended, documents get re-scanned, and the OCR
 * service moves from model v1 to v2 on {@link OCR_V2_FROM}.
 */
export function claimsTools(at: string, delay: () => Promise<void>): Record<string, ToolHandler> {
  const documents = new Map(CLAIMS.flatMap((claim) => claim.documents.map((document) => [document.documentId, { claim, document }] as const)));

  return {
    async fetch_claim(input) {
      await delay();
      const claim = findClaim(stringField(input, 'claim_id'));
      if (claim === undefined) throw new Error(`claim ${String(input.claim_id)} not found`);
      return {
        claim_id: claim.claimId,
        policy_id: claim.policyId,
        status: valueAt(claim.status, at),
        peril: claim.peril,
        holder: claim.holder,
        vehicle: claim.vehicle,
        description: claim.description,
        statement: holderStatement(claim),
        documents: claim.documents.map((document) => ({ document_id: document.documentId, kind: document.kind })),
      };
    },

    async ocr_document(input) {
      await delay();
      const found = documents.get(stringField(input, 'document_id'));
      if (found === undefined) throw new Error(`document ${String(input.document_id)} not found`);
      return readDocument(found.claim, found.document, at);
    },

    async estimate_repair(input) {
      await delay();
      const area = input.damage_area_cm2;
      const peril = stringField(input, 'peril') as Peril;
      if (typeof area !== 'number' || !(area >= 0)) throw new Error('damage_area_cm2 must be a number of square centimetres');
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
      const policy = POLICIES.find((candidate) => candidate.policyId === stringField(input, 'policy_id'));
      if (policy === undefined) throw new Error(`policy ${String(input.policy_id)} not found`);
      return {
        policy_id: policy.policyId,
        deductible: valueAt(policy.deductible, at),
        cover_limit: policy.coverLimit,
        currency: 'EUR',
        covered_perils: [...policy.covers],
      };
    },
  };
}

function readDocument(claim: ClaimFacts, document: DocumentFacts, at: string): JsonObject {
  const ocrModel = at < OCR_V2_FROM ? 'v1' : 'v2';
  const reading = valueAt(document.scans, at)[ocrModel];
  if (document.kind === 'photo_report') {
    return {
      document_id: document.documentId,
      ocr_model: ocrModel,
      fields: { photo_count: { value: 12, confidence: 0.99 } },
      text: `PHOTO REPORT\nClaim reference: ${claim.claimId}\n${document.notes}`,
    };
  }
  const panels = Math.max(1, Math.ceil(reading.value / 700));
  return {
    document_id: document.documentId,
    ocr_model: ocrModel,
    fields: {
      damage_area_cm2: { value: reading.value, confidence: reading.confidence },
      panels_affected: { value: panels, confidence: 0.93 },
      claim_reference: { value: claim.claimId, confidence: 0.99 },
    },
    text: formText(claim, document, reading.value, panels),
  };
}

// The holder's statement as the claims office transcribes it: the narrative plus the standard declarations.
function holderStatement(claim: ClaimFacts): string {
  return [
    `Statement of ${claim.holder}, policy ${claim.policyId}, vehicle ${claim.vehicle}.`,
    claim.description,
    'I confirm that the vehicle was being used for social, domestic and pleasure purposes at the time, that no',
    'other insurance covers this loss, and that I have not agreed any repair or settlement with a third party.',
    'I understand that the insurer may inspect the vehicle and the repair invoices before any payment, and that',
    'a false statement may void the policy. Photographs and the assessor report are attached.',
  ].join('\n');
}

// The OCR text of the whole assessor form: what a real OCR service returns beside its fields.
function formText(claim: ClaimFacts, document: DocumentFacts, area: number, panels: number): string {
  return [
    "ASSESSOR'S DAMAGE REPORT - MOTOR (form AR-7, rev. 2025-11)",
    `Claim reference: ${claim.claimId}    Policy: ${claim.policyId}`,
    `Policy holder: ${claim.holder}`,
    `Vehicle: ${claim.vehicle}`,
    `Peril reported: ${claim.peril}`,
    `Assessor: ${document.assessor}`,
    '',
    'Section A - Vehicle',
    `  Description: ${claim.vehicle}; inspected at the repairer's premises, odometer and VIN checked against the V5.`,
    '  Condition before loss: average for age and mileage; no previous damage noted on the affected panels.',
    '',
    'Section B - Extent of damage',
    `  Total damaged surface (cm2): ${area}`,
    `  Panels affected: ${panels}`,
    `  Notes: ${document.notes}`,
    '',
    'Section C - Repair method',
    '  Panels are repaired where the metal is not stretched; replaced where the dent depth exceeds 15 mm or the',
    '  crease crosses a swage line. Paint is blended into adjacent panels. Labour at the approved repairer rate;',
    '  parts at list price less the agreed discount. Glass by the insurer-approved glazier.',
    '',
    'Section D - Declaration',
    '  I inspected the vehicle in person and the measurements above are my own. Surfaces are measured',
    '  panel by panel with a flexible rule and summed; areas under 10 cm2 are not recorded. Hidden damage',
    '  found during repair must be reported on a supplementary form before work continues.',
    '',
    '  Signed and dated by the assessor. Copy retained by the repairer; original to the insurer.',
  ].join('\n');
}

function stringField(input: JsonObject, key: string): string {
  const value = input[key];
  if (typeof value !== 'string') throw new Error(`${key} must be a string`);
  return value;
}
