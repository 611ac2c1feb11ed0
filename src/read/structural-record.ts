import type { Cassette } from '../cassette/index.js';
import { parseCassette } from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import type { RunRecord, Store } from '../store/index.js';
import { hasExpired, structuralCassetteOf } from '../tiers/index.js';
import { cassetteOfRun } from './cassette-of-run.js';
import { readStepViews } from './read-run.js';

/**
 * The structural tier of a stored run: the record kept once its full tier was
 * removed, or, while the full tier is still there, its shape computed from it.
 * Raises `CASSETTE_EXPIRED` once the structural tier has expired too.
 */
export function structuralRecordOf(store: Store, run: RunRecord, now: Date): Cassette {
  if (hasExpired(run.structuralExpiresAt, now)) {
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `the structural tier of run ${run.runId} expired at ${run.structuralExpiresAt}; only the run summary remains`,
    );
  }
  const stored = store.readStructural(run.runId);
  if (stored !== undefined) return parseCassette(stored, `structural tier of run ${run.runId}`);
  if (run.purge !== null) {
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `run ${run.runId} keeps neither its full nor its structural tier; only the run summary remains`,
    );
  }
  return structuralCassetteOf(cassetteOfRun(store, run, readStepViews(store, run.runId)), run.structuralExpiresAt);
}
