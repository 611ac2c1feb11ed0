import type { JsonObject, JsonValue } from '../../../src/index.js';
import type { ClaimFacts, ClaimStatus, DocumentFacts, PolicyFacts } from '../world/claims-facts.js';
import { CLAIM_STATUSES, PERILS } from '../world/claims-facts.js';
import type { Timeline } from '../world/timeline.js';
import { always } from '../world/timeline.js';
import type { CaseReader } from './case-reader.js';
import { join } from './case-reader.js';

/** The world one synthetic case describes: its claim (with its documents), its policy, and the OCR timeouts. */
export interface CaseWorld {
  readonly claim: ClaimFacts;
  readonly policy: PolicyFacts;
  /** How many `ocr_document` calls on each document time out before one answers. */
  readonly timeouts: ReadonlyMap<string, number>;
}

// The simulated model finds the claim id in its first message with this pattern.
const CLAIM_ID = { regex: /^CLM-\d+$/, hint: 'CLM-95001' };
const POLICY_ID = { regex: /^POL-[A-Z0-9]+$/, hint: 'POL-S01' };
const DOCUMENT_ID = { regex: /^DOC-[A-Z0-9]+$/, hint: 'DOC-S0101' };
// Reserved for documentation (RFC 2606/6761): an address there can name nobody's real mailbox.
const MADE_UP_EMAIL = {
  regex: /^[A-Za-z0-9._+-]+@(?:[A-Za-z0-9-]+\.)*(?:example\.(?:com|org|net)|[A-Za-z0-9-]+\.(?:example|test|invalid))$/,
  hint: 'name@example.com (an address at example.com/.org/.net or under .example, .test or .invalid)',
};

/**
 * Reads the claim, policy and documents of a case (the case's `claim`,
 * `policy` and `documents`) into the facts the claims tools answer from. A
 * synthetic document has one reading, whichever OCR model reads it.
 */
export function readCaseWorld(reader: CaseReader, data: JsonObject, at: string): CaseWorld {
  const claim = readClaim(reader, data.claim, at);
  const policy = readPolicy(reader, data.policy, at);
  if (claim.policyId !== policy.policyId) {
    reader.fail('claim.policyId', `is ${claim.policyId} but the case's policy is ${policy.policyId}: they must match`);
  }
  const documents = reader
    .array(data.documents, 'documents', 1)
    .map((entry, index) => readDocument(reader, entry, join('documents', index)));
  const ids = documents.map(({ document }) => document.documentId);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) reader.fail('documents', `lists ${repeated} twice: document ids must be unique`);
  return {
    claim: { ...claim, documents: documents.map(({ document }) => document) },
    policy,
    timeouts: new Map(documents.map(({ document, timeouts }) => [document.documentId, timeouts])),
  };
}

function readClaim(reader: CaseReader, value: JsonValue | undefined, at: string): Omit<ClaimFacts, 'documents'> {
  const claim = reader.object(
    value,
    'claim',
    ['claimId', 'policyId', 'peril', 'holder', 'vehicle', 'status', 'description'],
    ['holderEmail'],
  );
  return {
    claimId: reader.string(claim.claimId, 'claim.claimId', CLAIM_ID),
    policyId: reader.string(claim.policyId, 'claim.policyId', POLICY_ID),
    peril: reader.oneOf(claim.peril, 'claim.peril', PERILS),
    holder: reader.string(claim.holder, 'claim.holder'),
    ...(claim.holderEmail === undefined
      ? {}
      : { holderEmail: reader.string(claim.holderEmail, 'claim.holderEmail', MADE_UP_EMAIL) }),
    vehicle: reader.string(claim.vehicle, 'claim.vehicle'),
    status: readTimeline(reader, claim.status, 'claim.status', at, (entry, path): ClaimStatus =>
      reader.oneOf(entry, path, CLAIM_STATUSES),
    ),
    description: reader.string(claim.description, 'claim.description'),
  };
}

function readPolicy(reader: CaseReader, value: JsonValue | undefined, at: string): PolicyFacts {
  const policy = reader.object(value, 'policy', ['policyId', 'deductible', 'coverLimit', 'covers']);
  return {
    policyId: reader.string(policy.policyId, 'policy.policyId', POLICY_ID),
    deductible: readTimeline(reader, policy.deductible, 'policy.deductible', at, (entry, path) =>
      reader.number(entry, path, { min: 0 }),
    ),
    coverLimit: reader.number(policy.coverLimit, 'policy.coverLimit', { min: 1 }),
    covers: reader
      .array(policy.covers, 'policy.covers', 1)
      .map((entry, index) => reader.oneOf(entry, join('policy.covers', index), PERILS)),
  };
}

function readDocument(
  reader: CaseReader,
  value: JsonValue,
  path: string,
): { document: DocumentFacts; timeouts: number } {
  const fields = reader.object(value, path, ['documentId', 'kind', 'assessor', 'notes'], ['ocr', 'timeouts']);
  const kind = reader.oneOf(fields.kind, join(path, 'kind'), ['assessor_form', 'photo_report'] as const);
  // A photo report carries no damage area: a reading on one would be silently ignored, so it is refused.
  if (kind === 'photo_report' && fields.ocr !== undefined) {
    reader.fail(join(path, 'ocr'), 'is given on a photo_report, which carries no damage area: remove it');
  }
  const reading =
    kind === 'assessor_form'
      ? readReading(reader, fields.ocr, join(path, 'ocr'))
      : // What the recorded world's photo reports hold; the OCR service does not show it.
        { value: 0, confidence: 0.99 };
  return {
    document: {
      documentId: reader.string(fields.documentId, join(path, 'documentId'), DOCUMENT_ID),
      kind,
      scans: always({ v1: reading, v2: reading }),
      assessor: reader.string(fields.assessor, join(path, 'assessor')),
      notes: reader.string(fields.notes, join(path, 'notes')),
    },
    timeouts:
      fields.timeouts === undefined
        ? 0
        : reader.number(fields.timeouts, join(path, 'timeouts'), { min: 0, integer: true }),
  };
}

function readReading(
  reader: CaseReader,
  value: JsonValue | undefined,
  path: string,
): { value: number; confidence: number } {
  const ocr = reader.object(value, path, ['value', 'confidence']);
  return {
    value: reader.number(ocr.value, join(path, 'value'), { min: 0 }),
    confidence: reader.number(ocr.confidence, join(path, 'confidence'), { min: 0, max: 1 }),
  };
}

/**
 * A field that is either one value or a timeline `[{ from, value }, ...]`,
 * dated entries in order, the first in force on the case's day `at`.
 */
function readTimeline<T>(
  reader: CaseReader,
  value: JsonValue | undefined,
  path: string,
  at: string,
  readValue: (entry: JsonValue | undefined, path: string) => T,
): Timeline<T> {
  if (!Array.isArray(value)) return always(readValue(value, path));
  const entries = reader.array(value, path, 1).map((entry, index) => {
    const fields = reader.object(entry, join(path, index), ['from', 'value']);
    return {
      from: reader.date(fields.from, `${join(path, index)}.from`),
      value: readValue(fields.value, `${join(path, index)}.value`),
    };
  });
  entries.forEach((entry, index) => {
    const before = entries[index - 1];
    if (before !== undefined && entry.from <= before.from) {
      reader.fail(`${join(path, index)}.from`, `is ${entry.from}, not after ${before.from}: entries go in date order`);
    }
  });
  // valueAt has nothing to give on a day before the first entry.
  const first = entries[0];
  if (first !== undefined && first.from > at) {
    reader.fail(
      `${join(path, 0)}.from`,
      `is ${first.from}, after the case's day ${at}: start the timeline at 0000-01-01`,
    );
  }
  return entries;
}
