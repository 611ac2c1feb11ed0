import type { DocumentFacts, ScanReadings } from './claims-facts.js';
import { always } from './timeline.js';

/** A clean scan: both OCR models read `value`, v1 at most at 0.93. */
export const clean = (value: number, confidence = 0.96): ScanReadings => ({
  v1: { value, confidence: Math.min(confidence, 0.93) },
  v2: { value, confidence },
});

/** The field photographer's report a claim may carry beside its forms (no damage area). */
export const photos = (documentId: string): DocumentFacts => ({
  documentId,
  kind: 'photo_report',
  scans: always(clean(0, 0.99)),
  assessor: 'field photographer',
  notes: 'Twelve photographs of the damaged panels, taken in daylight.',
});
