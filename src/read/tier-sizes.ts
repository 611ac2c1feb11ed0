import { serializeCassette } from '../cassette/index.js';
import { isForkpointError } from '../errors/index.js';
import type { RunRecord, Store } from '../store/index.js';
import { fullCassetteOf } from './full-tier.js';
import { structuralRecordOf } from './structural-record.js';

/** The bytes of each tier of a run, as the cassette file `export --tier` writes; null for a tier that is gone. */
export interface TierSizes {
  readonly full: number | null;
  readonly structural: number | null;
}

/** Measures each tier of a run that can still be read at `now`. */
export function tierSizesOf(store: Store, run: RunRecord, now: Date): TierSizes {
  return {
    full: bytesOrNull(() => serializeCassette(fullCassetteOf(store, run, now, 'read the cassette of'))),
    structural: bytesOrNull(() => serializeCassette(structuralRecordOf(store, run, now))),
  };
}

function bytesOrNull(serialize: () => string): number | null {
  try {
    return Buffer.byteLength(serialize());
  } catch (error) {
    if (isForkpointError(error, 'CASSETTE_EXPIRED')) return null;
    throw error;
  }
}
