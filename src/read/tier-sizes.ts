import { serializeCassette } from '../cassette/index.js';
import { isForkpointError } from '../errors/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import { fullCassetteOf } from './full-tier.js';
import { structuralRecordOf } from './structural-record.js';

/** The bytes of each tier of a run, as the cassette file `export --tier` writes; null for a tier that is gone. */
export interface TierSizes {
  readonly full: number | null;
  readonly structural: number | null;
}

/** Measures each tier of a run that can still be read at `now`. */
export async function tierSizesOf(store: StoreReader, run: RunRecord, now: Date): Promise<TierSizes> {
  return {
    full: await bytesOrNull(async () =>
      serializeCassette(await fullCassetteOf(store, run, now, 'read the cassette of')),
    ),
    structural: await bytesOrNull(async () => serializeCassette(await structuralRecordOf(store, run, now))),
  };
}

async function bytesOrNull(serialize: () => Promise<string>): Promise<number | null> {
  try {
    return Buffer.byteLength(await serialize());
  } catch (error) {
    if (isForkpointError(error, 'CASSETTE_EXPIRED')) return null;
    throw error;
  }
}
