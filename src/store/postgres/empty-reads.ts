import type { StoreReader, StoreSettings } from '../store.js';

/**
 * The answers of a store that holds nothing: what a reader of a schema
 * without forkpoint's tables gets (as a reader of an empty SQLite file does),
 * without a statement that would fail on the missing tables.
 */
export function emptyReads(settings: StoreSettings): Omit<StoreReader, 'location' | 'read'> {
  const none = <T>(value: T) => Promise.resolve(value);
  return {
    getRun: () => none(undefined),
    listRuns: () => none([]),
    queryRuns: () => none([]),
    listSignedRuns: () => none([]),
    listChildren: () => none([]),
    readLineage: () => none([]),
    readRestore: (request) =>
      none({
        chain: [],
        logs: request.logs.map(() => ({ segments: [], messages: [], digests: [] })),
        blobs: new Map<string, string>(),
      }),
    expiredRuns: () => none([]),
    expiredStructural: () => none([]),
    readSteps: () => none([]),
    readCheckpointChain: () => none([]),
    readMessages: () => none({ segments: [], messages: [], digests: [] }),
    readBlobs: () => none(new Map<string, string>()),
    readStructural: () => none(undefined),
    settings: () => none({ ...settings }),
    exportKey: () => none(undefined),
  };
}
