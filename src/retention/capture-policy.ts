import { serializeCassette } from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import { sha256Hex } from '../json/index.js';
import type { RunRecord, Store } from '../store/index.js';
import { structuralCassetteOf } from '../tiers/index.js';
import { cassetteOfRun } from '../read/index.js';
import { redactedSummary } from '../read/index.js';
import type { StepView } from '../read/index.js';

/**
 * Which runs keep their full tier. `all` keeps every one; `errors+sample`
 * keeps the runs that fail and a seeded random share of the rest (the control
 * group), and keeps only the structural tier and the summary of the others.
 */
export type CapturePolicy = { readonly keep: 'all' } | { readonly keep: 'errors+sample'; readonly rate: number };

/**
 * What the capture policy did with one run, and why: `awaiting-approval` is a
 * run that stopped for a person's answer, kept whole because the answer
 * continues it from its full tier.
 */
export interface CaptureDecision {
  readonly kept: boolean;
  readonly reason: 'all' | 'error' | 'awaiting-approval' | 'sampled' | 'not-sampled';
}

/** A capture decision with the size of each tier, measured as cassette files before anything was dropped. */
export interface CaptureReport extends CaptureDecision {
  readonly bytes: { readonly full: number; readonly structural: number };
}

/** Reads `all` or `errors+sample:RATE` (RATE in [0, 1], e.g. 0.01). */
export function parseCapturePolicy(text: string): CapturePolicy {
  if (text === 'all') return { keep: 'all' };
  const sampled = /^errors\+sample:(\d+(?:\.\d+)?)$/.exec(text);
  const rate = sampled === null ? Number.NaN : Number(sampled[1]);
  if (!(rate >= 0 && rate <= 1)) {
    throw new ForkpointError(
      'USAGE',
      `a capture policy must be all or errors+sample:RATE with RATE between 0 and 1 (e.g. errors+sample:0.01), got "${text}"`,
    );
  }
  return { keep: 'errors+sample', rate };
}

/** Writes a policy back as `parseCapturePolicy` reads it. */
export const formatCapturePolicy = (policy: CapturePolicy): string =>
  policy.keep === 'all' ? 'all' : `errors+sample:${policy.rate}`;

/**
 * A run's draw in [0, 1) for the sample: a hash of its seed and id, so the
 * same run is always in or out of the sample, and the draws of different
 * runs are independent.
 */
export function sampleDraw(run: Pick<RunRecord, 'runId' | 'seed'>): number {
  return Number.parseInt(sha256Hex(`${run.seed ?? 0}:${run.runId}`, 8), 16) / 2 ** 32;
}

/** Decides whether a run that stopped (it ended, or waits for a person) keeps its full tier. */
export function decideCapture(
  policy: CapturePolicy,
  run: Pick<RunRecord, 'runId' | 'seed' | 'status'>,
): CaptureDecision {
  if (policy.keep === 'all') return { kept: true, reason: 'all' };
  if (run.status === 'awaiting-approval') return { kept: true, reason: 'awaiting-approval' };
  if (run.status !== 'completed') return { kept: true, reason: 'error' };
  return sampleDraw(run) < policy.rate ? { kept: true, reason: 'sampled' } : { kept: false, reason: 'not-sampled' };
}

/**
 * Applies a capture policy to a finished run (its steps as the recording just
 * returned them): measures both tiers, and for a
 * run the policy does not keep, stores the structural tier and removes the
 * full one, leaving the summary. The removal costs what the run holds, not
 * what the store holds (see `Store.purgeRuns`), so dropping a run costs about
 * what keeping it does.
 */
export async function applyCapturePolicy(
  store: Store,
  run: RunRecord,
  steps: readonly StepView[],
  policy: CapturePolicy,
  now: Date,
): Promise<CaptureReport> {
  const decision = decideCapture(policy, run);
  const full = await cassetteOfRun(store, run, steps);
  const structural = serializeCassette(structuralCassetteOf(full, run.structuralExpiresAt));
  const bytes = { full: Buffer.byteLength(serializeCassette(full)), structural: Buffer.byteLength(structural) };
  if (!decision.kept) {
    // One transaction for both: the shape is stored before the rows go, and a dropped run costs one commit.
    await store.purgeRuns([
      {
        runId: run.runId,
        purge: { at: now.toISOString(), reason: 'capture-policy' },
        redacted: redactedSummary(run),
        structural,
      },
    ]);
  }
  return { ...decision, bytes };
}
