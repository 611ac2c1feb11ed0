import type { PayloadBlob } from '../../payload/index.js';
import { collectReferences, collectRowReferences, noReferences } from '../blob-references.js';
import type { References } from '../blob-references.js';
import type { StepRecord } from '../step-record.js';

/**
 * The memory store's blobs, each stored once by digest, and which runs reach
 * each of them: the runs that stored it, and the runs whose rows refer to it,
 * directly or through `$tree` blobs. A purge removes the blobs no other run
 * reaches, as the SQLite store's ownership does.
 */
export interface MemoryBlobs {
  /** Stores a write's blobs for `runId`; a blob stored already keeps its body. */
  insert(runId: string, blobs: readonly PayloadBlob[]): void;
  /** Records that `runId` reaches every stored blob `row` refers to. */
  registerRow(runId: string, row: StepRecord): void;
  /** Bodies by digest; unknown digests are absent. */
  read(digests: readonly string[]): Map<string, string>;
  has(digest: string): boolean;
  /** Drops the claims of purged runs, and removes the blobs no run reaches any more; returns how many. */
  release(runIds: readonly string[]): number;
}

/** An empty {@link MemoryBlobs}. */
export function memoryBlobs(): MemoryBlobs {
  const bodies = new Map<string, string>();
  const reachers = new Map<string, Set<string>>();
  const reachedBy = new Map<string, Set<string>>();

  const mark = (runId: string, digest: string): boolean => {
    let runs = reachers.get(digest);
    if (runs === undefined) reachers.set(digest, (runs = new Set()));
    if (runs.has(runId)) return false;
    runs.add(runId);
    let digests = reachedBy.get(runId);
    if (digests === undefined) reachedBy.set(runId, (digests = new Set()));
    digests.add(digest);
    return true;
  };
  // What a tree's body refers to is reached with it; a reference to a blob that is not stored keeps nothing.
  const reach = (runId: string, references: References): void => {
    let frontier = references;
    while (frontier.all.size > 0) {
      const next = noReferences();
      for (const digest of frontier.all) {
        const body = bodies.get(digest);
        if (body === undefined || !mark(runId, digest)) continue;
        if (frontier.trees.has(digest)) collectReferences(body, next);
      }
      frontier = next;
    }
  };

  return {
    insert(runId, blobs) {
      const nested = noReferences();
      for (const blob of blobs) {
        if (bodies.has(blob.digest)) continue;
        bodies.set(blob.digest, blob.body);
        mark(runId, blob.digest);
        collectReferences(blob.body, nested);
      }
      reach(runId, nested);
    },
    registerRow(runId, row) {
      const references = noReferences();
      collectRowReferences([row.messageSegment, row.request, row.response, row.message, row.checkpoint], references);
      reach(runId, references);
    },
    read(digests) {
      const found = new Map<string, string>();
      for (const digest of digests) {
        const body = bodies.get(digest);
        if (body !== undefined) found.set(digest, body);
      }
      return found;
    },
    has: (digest) => bodies.has(digest),
    release(runIds) {
      let removed = 0;
      for (const runId of runIds) {
        for (const digest of reachedBy.get(runId) ?? []) {
          const runs = reachers.get(digest);
          runs?.delete(runId);
          if (runs !== undefined && runs.size > 0) continue;
          reachers.delete(digest);
          if (bodies.delete(digest)) removed++;
        }
        reachedBy.delete(runId);
      }
      return removed;
    },
  };
}
