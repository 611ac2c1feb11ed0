import type { Cassette } from '../cassette/index.js';
import { parseCassette } from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import { hasExpired, structuralCassetteOf } from '../tiers/index.js';
import { cassetteOfRun } from './cassette-of-run.js';
import { readStepViews } from './step-views.js';

/**
 * The structural tier of a stored run: the record kept once its full tier was
 * removed, or, while the full tier is still there, its shape computed from it.
 * Raises `CASSETTE_EXPIRED` once the structural tier has expired too.
 */
export async function structuralRecordOf(store: StoreReader, run: RunRecord, now: Date): Promise<Cassette> {
  if (hasExpired(run.structuralExpiresAt, now)) {
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `the structural tier of run ${run.runId} expired at ${run.structuralExpiresAt}; only the run summary remains`,
    );
  }
  const stored = await store.readStructural(run.runId);
  if (stored !== undefined) return parseCassette(stored, `structural tier of run ${run.runId}`);
  if (run.purge !== null) {
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `run ${run.runId} keeps neither its full nor its structural tier; only the run summary remains`,
    );
  }
  const full = await store.read(async (reader) =>
    cassetteOfRun(reader, run, await readStepViews(reader, run.runId, { known: run })),
  );
  return structuralCassetteOf(full, run.structuralExpiresAt);
}
