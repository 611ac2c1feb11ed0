import type { Timeline } from './timeline.js';

/** The perils a claim can name and a policy can cover. */
export const PERILS = ['hail', 'collision', 'flood', 'fire', 'storm'] as const;

/** A peril a claim can name and a policy can cover. */
export type Peril = (typeof PERILS)[number];

/** The states a claim moves through. */
export const CLAIM_STATUSES = ['open', 'settled', 'disputed'] as const;

/** The state of a claim on a given day. */
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** One field as an OCR model reads it. */
export interface FieldReading {
  readonly value: number;
  readonly confidence: number;
}

/** What each OCR model reads off one scan of a form. */
export interface ScanReadings {
  readonly v1: FieldReading;
  readonly v2: FieldReading;
}

/** A document attached to a claim. Assessor forms carry the damage area; scans may be redone. */
export interface DocumentFacts {
  readonly documentId: string;
  readonly kind: 'assessor_form' | 'photo_report';
  readonly scans: Timeline<ScanReadings>;
  readonly assessor: string;
  readonly notes: string;
  /**
   * The days the claim lists the document among its attachments (default:
   * every day). Only the period claims that split or merge a form use it, so
   * no other claim's output changes.
   */
  readonly attached?: Timeline<boolean>;
}

/** A claim, its narrative and its documents. */
export interface ClaimFacts {
  readonly claimId: string;
  readonly policyId: string;
  readonly peril: Peril;
  readonly holder: string;
  /** How to reach the holder; absent from the recorded world's claims, so their outputs do not change. */
  readonly holderEmail?: string;
  readonly vehicle: string;
  /**
   * Text the holder added to their statement through the portal, on the days
   * it stood there (null: none). Absent from every claim but the one it is
   * for, so no other claim's statement changes.
   */
  readonly statementNote?: Timeline<string | null>;
  readonly status: Timeline<ClaimStatus>;
  readonly description: string;
  readonly documents: readonly DocumentFacts[];
}

/** A policy: what it covers, up to how much, and the deductible (which may be amended). */
export interface PolicyFacts {
  readonly policyId: string;
  readonly deductible: Timeline<number>;
  readonly coverLimit: number;
  readonly covers: readonly Peril[];
}

/** The claims and policies a world's tools answer from. */
export interface ClaimsCatalogue {
  readonly claims: readonly ClaimFacts[];
  readonly policies: readonly PolicyFacts[];
}
