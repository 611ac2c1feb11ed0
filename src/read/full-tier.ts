import type { Cassette } from '../cassette/index.js';
import type { Tier } from '../vocabulary/index.js';
import type { LineageSegment } from '../checkpoint/index.js';
import { segmentsOfLineage } from '../checkpoint/index.js';
import type { ErrorDetails } from '../errors/index.js';
import { ForkpointError } from '../errors/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import { hasExpired } from '../tiers/index.js';
import { cassetteOfRun } from './cassette-of-run.js';
import { readStepViews } from './step-views.js';

/** What a caller was about to do with a run's full tier, for the error message. */
export type FullTierUse =
  | 'replay'
  | 'fork'
  | 're-execute'
  | 'resume'
  | 'approve a call of'
  | 'restore a checkpoint of'
  | 'read the cassette of'
  | 'probe the drift of';

/**
 * Checks that the full tier of `run`, and of every run whose rows it reads (a
 * fork's ancestors), can still be used at `now`: not removed by `gc` or by the
 * capture policy, and not past its expiry. Raises `CASSETTE_EXPIRED` naming
 * the expiry and the tier that remains. Returns the lineage it checked, for
 * the caller that reads those rows next.
 *
 * @param records the run's lineage as `readLineage` gives it, when the caller has read it already
 */
export async function requireFullTier(
  store: StoreReader,
  run: RunRecord,
  now: Date,
  use: FullTierUse,
  records?: readonly RunRecord[],
): Promise<LineageSegment[]> {
  // One read for the run's ancestors, none for a run without a parent.
  const lineage = records ?? (run.parent === null ? [run] : await store.readLineage(run.runId));
  const segments = segmentsOfLineage(lineage, run.runId, store.location);
  const byId = new Map(lineage.map((record) => [record.runId, record]));
  for (const segment of segments) {
    const owner = segment.runId === run.runId ? run : byId.get(segment.runId);
    if (owner !== undefined) await checkOwnFullTier(store, owner, now, use, run.runId);
  }
  return segments;
}

async function checkOwnFullTier(
  store: StoreReader,
  owner: RunRecord,
  now: Date,
  use: FullTierUse,
  asked: string,
): Promise<void> {
  const through = owner.runId === asked ? '' : ` (run ${asked} continues run ${owner.runId}, whose steps it reads)`;
  if (owner.purge !== null) {
    const why =
      owner.purge.reason === 'capture-policy'
        ? `was not kept: the capture policy kept only its structural tier`
        : `expired at ${owner.expiresAt ?? owner.purge.at} and was removed from storage at ${owner.purge.at}`;
    const remaining = await remainingTier(store, owner, now);
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `cannot ${use} run ${asked}: the full tier of run ${owner.runId} ${why}${through}; ${remaining.text}`,
      { details: { runId: asked, ...remaining.details } },
    );
  }
  if (hasExpired(owner.expiresAt, now)) {
    const remaining = await remainingTier(store, owner, now);
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `cannot ${use} run ${asked}: the full tier of run ${owner.runId} expired at ${owner.expiresAt}${through} (\`gc\` removes it); ${remaining.text}`,
      { details: { runId: asked, ...remaining.details } },
    );
  }
}

// What is left of a run once its full tier is gone, in words, and the replay that still serves as a remedy.
async function remainingTier(
  store: StoreReader,
  run: RunRecord,
  now: Date,
): Promise<{ text: string; details: ErrorDetails }> {
  const structural = run.structuralExpiresAt !== null && !hasExpired(run.structuralExpiresAt, now);
  if (structural && (run.purge === null || (await store.readStructural(run.runId)) !== undefined)) {
    return {
      text: `the structural tier remains until ${run.structuralExpiresAt}`,
      details: { remedy: { kind: 'replay-structural', runId: run.runId } },
    };
  }
  return { text: 'only the run summary remains', details: {} };
}

/** Checks a cassette file's expiry: an expired full cassette may not be used, wherever it was copied to. */
export function requireUnexpiredCassette(cassette: Cassette, origin: string, now: Date): void {
  const expiresAt = cassette.expiresAt ?? null;
  if (!hasExpired(expiresAt, now)) return;
  const tier = cassette.tier ?? 'full';
  const { runId } = cassette.source;
  throw new ForkpointError(
    'CASSETTE_EXPIRED',
    `cassette ${origin} (${tier} tier of run ${runId}) expired at ${expiresAt}`,
    {
      details: { runId, path: origin, ...(tier === 'full' ? { remedy: { kind: 'export-structural', runId } } : {}) },
    },
  );
}

/** The tier of a run that copies `source`: a copy of a synthetic case stays synthetic; anything else is full. */
export const tierOfCopy = (source: Pick<RunRecord, 'tier'> | Pick<Cassette, 'tier'>): Tier =>
  source.tier === 'synthetic' ? 'synthetic' : 'full';

/** The full cassette of a stored run, once {@link requireFullTier} has let it through. */
export function fullCassetteOf(store: StoreReader, run: RunRecord, now: Date, use: FullTierUse): Promise<Cassette> {
  return store.read(async (reader) => {
    await requireFullTier(reader, run, now, use);
    return cassetteOfRun(reader, run, await readStepViews(reader, run.runId, { known: run }));
  });
}
