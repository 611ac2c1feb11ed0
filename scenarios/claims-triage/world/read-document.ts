import type { JsonObject } from '../../../src/index.js';
import type { ClaimFacts, DocumentFacts } from './claims-facts.js';
import { valueAt } from './timeline.js';

/** The day the OCR service switched to model v2, which reads folded forms correctly. */
export const OCR_V2_FROM = '2026-03-05';

/**
 * What the OCR service returns for one document on day `at`: the fields it
 * recognised, each with its confidence, and the full text. The service reads
 * with model v1 before {@link OCR_V2_FROM} and v2 from then on. Photo reports
 * carry no damage area.
 */
export function readDocument(claim: ClaimFacts, document: DocumentFacts, at: string): JsonObject {
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
