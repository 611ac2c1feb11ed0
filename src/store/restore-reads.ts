import type { RunRecord } from './run-record.js';
import type { MessageLog } from './step-record.js';
import type { RestoreRequest, RestoreRows } from './restore-request.js';
import type { StoreReader } from './store.js';
import { collectReferences, noReferences } from './blob-references.js';

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
