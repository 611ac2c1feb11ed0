import type { PayloadBlob } from '../../payload/index.js';
import { collectReferences, collectRowReferences, noReferences } from '../blob-references.js';
import type { RunRecord } from '../run-record.js';
import type { StepRecord } from '../step-record.js';
import type { StoreReader } from '../store.js';

/** Everything a store holds of one run: what `importRun` writes into another. */
export interface RunContent {
  readonly run: RunRecord;
  /** Its own rows, as stored (a purged run has none). */
  readonly rows: readonly StepRecord[];
  /** Every blob the rows reach, directly or through `$tree` blobs, as stored. */
  readonly blobs: readonly PayloadBlob[];
  readonly structural: string | undefined;
}

/**
 * Reads a run's content from one consistent state of the store: its record,
 * its rows, the blobs they reach (closed over `$tree` bodies), and its
 * structural cassette. Undefined when the store has no such run.
 */
export async function readRunContent(store: StoreReader, runId: string): Promise<RunContent | undefined> {
  return await store.read(async (reader) => {
    const run = await reader.getRun(runId);
    if (run === undefined) return undefined;
    const rows = await reader.readSteps(runId);
    const references = noReferences();
    for (const row of rows)
      collectRowReferences([row.messageSegment, row.request, row.response, row.message, row.checkpoint], references);
    const bodies = new Map<string, string>();
    const asked = new Set<string>();
    // A tree's body refers further; the other blobs are read once, at the end, with what is still missing.
    let frontier = [...references.trees];
    while (frontier.length > 0) {
      for (const digest of frontier) asked.add(digest);
      for (const [digest, body] of await reader.readBlobs(frontier)) {
        bodies.set(digest, body);
        collectReferences(body, references);
      }
      frontier = [...references.trees].filter((digest) => !asked.has(digest));
    }
    const rest = [...references.all].filter((digest) => !bodies.has(digest));
    for (const [digest, body] of await reader.readBlobs(rest)) bodies.set(digest, body);
    const blobs = [...bodies].map(([digest, body]) => ({ digest, body }));
    return { run, rows, blobs, structural: await reader.readStructural(runId) };
  });
}

/**
 * Whether two stores hold a run the same way: the same record, the same rows
 * and the same structural cassette (blobs are named by their digests in the
 * rows). Records compare as canonical JSON, so the key order a store keeps
 * them in does not count.
 */
export function sameContent(a: RunContent, b: RunContent): boolean {
  return (
    canonical(a.run) === canonical(b.run) && canonical(a.rows) === canonical(b.rows) && a.structural === b.structural
  );
}

// Records and rows are plain JSON by construction: their text with every object's keys sorted.
const canonical = (value: RunRecord | readonly StepRecord[]): string => JSON.stringify(value, sortedKeys);
const sortedKeys = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;
