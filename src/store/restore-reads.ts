import type { RunRecord } from './run-record.js';
import type { CheckpointRow, MessageLog } from './step-record.js';
import type { StoreReader } from './store.js';
import { collectReferences, noReferences } from './blob-references.js';

/** A run's own rows over a range of steps (inclusive), whose messages a restore reads. */
export interface MessageRange {
  readonly runId: string;
  readonly from: number;
  readonly to: number;
}

/** What restoring one checkpoint reads once its lineage is known (see `StoreReader.readRestore`). */
export interface RestoreRequest {
  /** The run whose own rows hold the checkpoint, and its step. */
  readonly chain: { readonly runId: string; readonly step: number };
  /** The message ranges of the trajectory up to the checkpoint, oldest first. */
  readonly logs: readonly MessageRange[];
}

/** The answer to a {@link RestoreRequest}, read in one consistent state of the store. */
export interface RestoreRows {
  /** As `readCheckpointChain(chain.runId, chain.step)`. */
  readonly chain: CheckpointRow[];
  /** As `readMessages` of each range, in the order asked. */
  readonly logs: MessageLog[];
  /**
   * The body of every blob the chain's checkpoints and the logs' messages
   * refer to, through `$tree` blobs too: all a decode needs, so that it reads
   * nothing more. A blob the store does not hold is absent.
   */
  readonly blobs: ReadonlyMap<string, string>;
}

/**
 * `readLineage` composed of `getRun` calls, one per generation: for stores
 * whose reads cost no round trip (memory, SQLite). Stops at a missing
 * ancestor, or at one already listed (a cycle), for the caller to name.
 */
export async function lineageByRuns(reader: StoreReader, runId: string): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  const seen = new Set<string>();
  let next: string | undefined = runId;
  while (next !== undefined && !seen.has(next)) {
    seen.add(next);
    const run = await reader.getRun(next);
    if (run === undefined) break;
    records.push(run);
    next = run.parent?.runId;
  }
  return records;
}

/**
 * `readRestore` composed of the reader's own reads: the chain, each log, and
 * the blobs level by level (one read per level of `$tree` nesting), inside one
 * `read`, so the answer is consistent. For stores whose reads cost no round trip.
 */
export function restoreByParts(reader: StoreReader, request: RestoreRequest): Promise<RestoreRows> {
  return reader.read(async (consistent) => {
    const chain = await consistent.readCheckpointChain(request.chain.runId, request.chain.step);
    const logs: MessageLog[] = [];
    for (const range of request.logs) logs.push(await consistent.readMessages(range.runId, range.from, range.to));
    const references = noReferences();
    for (const row of chain) collectReferences(row.checkpoint, references);
    for (const log of logs) for (const message of log.messages) collectReferences(message, references);
    const blobs = new Map<string, string>();
    let wanted = [...references.all];
    while (wanted.length > 0) {
      const found = await consistent.readBlobs(wanted);
      const next = noReferences();
      for (const [digest, body] of found) {
        blobs.set(digest, body);
        // Plain blobs hold no reference: only `$tree` bodies are read for more.
        if (references.trees.has(digest)) collectReferences(body, next);
      }
      for (const digest of next.trees) references.trees.add(digest);
      wanted = [...next.all].filter((digest) => !blobs.has(digest));
    }
    return { chain, logs, blobs };
  });
}
