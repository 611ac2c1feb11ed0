import type Database from 'better-sqlite3';
import type { PayloadBlob } from '../../payload/index.js';
import type { StepRecord } from '../step-record.js';
import type { References } from '../blob-references.js';
import { collectReferences, collectRowReferences, noReferences } from '../blob-references.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { outlives } from '../sealing/run-sealing-key.js';

/**
 * The statements of {@link blobOwnership}, by name. Each one finds its rows
 * through a key or an index, never a scan, so that a write and a purge cost
 * what they touch, however large the database (a test checks every plan).
 */
export const OWNERSHIP_SQL = {
  // A removed blob's row (its body NULL) comes back to life as a new one, owned by the run that stores it.
  // A stored blob is sealed again, for the same owner, when the run storing it has a later key, or none
  // (see outlives): it must stay readable as long as the longest-lived run that stored it. Returns the
  // owner when the row was written; no row when the blob stays as it was.
  insertBlob: `INSERT INTO blobs (digest, owner_key, key_id, body) VALUES (?, ?, ?, ?)
    ON CONFLICT (digest) DO UPDATE SET owner_key = iif(blobs.body IS NULL, excluded.owner_key, blobs.owner_key),
      key_id = excluded.key_id, body = excluded.body
    WHERE blobs.body IS NULL OR (blobs.key_id IS NOT NULL AND (excluded.key_id IS NULL OR excluded.key_id > blobs.key_id))
    RETURNING owner_key`,
  // The key each stored blob among a JSON array of digests is sealed under (NULL: plain).
  storedKeys: `SELECT blobs.digest, blobs.key_id FROM json_each(?) AS wanted
    JOIN blobs ON blobs.digest = wanted.value WHERE blobs.body IS NOT NULL`,
  // The stored blobs among a JSON array of digests.
  blobsByDigests: `SELECT blobs.id, blobs.digest, blobs.owner_key FROM json_each(?) AS wanted
    JOIN blobs ON blobs.digest = wanted.value WHERE blobs.body IS NOT NULL`,
  // [blob id, run key] pairs; returns the blob ids of the pairs that are new.
  addReferences: `INSERT INTO blob_refs (blob_id, run_key) SELECT value ->> 0, value ->> 1 FROM json_each(?) WHERE true
    ON CONFLICT DO NOTHING RETURNING blob_id`,
  bodiesByIds: 'SELECT digest, body FROM blobs WHERE id IN (SELECT value FROM json_each(?)) AND body IS NOT NULL',
  // A purge's candidates, all at once (a JSON array of digests). The owner counts only while its rows
  // exist: a purged run reaches nothing, and the purged runs are marked before this is read.
  candidates: `SELECT blobs.id, blobs.digest, blobs.owner_key,
      EXISTS (SELECT 1 FROM runs WHERE runs.run_key = blobs.owner_key AND runs.purged_at IS NULL) AS owner_live
    FROM json_each(?) AS wanted JOIN blobs ON blobs.digest = wanted.value WHERE blobs.body IS NOT NULL`,
  // [blob id, run key] pairs, as a JSON array.
  dropReferences:
    'DELETE FROM blob_refs WHERE (blob_id, run_key) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))',
  // For each blob id of a JSON array, a live run that reaches it, if any.
  heirs: `SELECT wanted.value AS id,
      (SELECT blob_refs.run_key FROM blob_refs JOIN runs ON runs.run_key = blob_refs.run_key
       WHERE blob_refs.blob_id = wanted.value AND runs.purged_at IS NULL LIMIT 1) AS heir
    FROM json_each(?) AS wanted`,
  setOwner: 'UPDATE blobs SET owner_key = ? WHERE id = ?',
  dropReference: 'DELETE FROM blob_refs WHERE blob_id = ? AND run_key = ?',
  // The body goes now, zeroed by secure_delete; the row, a digest, goes with the next compaction.
  removeBlobs:
    'UPDATE blobs SET body = NULL, owner_key = NULL, key_id = NULL WHERE id IN (SELECT value FROM json_each(?))',
  dropAllReferences: 'DELETE FROM blob_refs WHERE blob_id IN (SELECT value FROM json_each(?))',
} as const;

/** A blob's body as the table holds it: plain text, or sealed bytes. */
export type StoredBody = string | Buffer;

/** One purged run's key and every blob its rows reached (closed over `$tree` blobs). */
export interface ReleasedRun {
  readonly runKey: number;
  readonly references: References;
}

/** Who holds each payload blob: kept as rows are written, consulted when runs are purged. */
export interface BlobOwnership {
  /**
   * Stores a write's blobs for run `runKey`, sealed under its tier key
   * `keyId` (null: plain): a new one is owned by the run; one stored under an
   * earlier key is sealed again under this one. Call inside the write's
   * transaction, before {@link registerRow} of the rows that refer to them.
   */
  insertBlobs(runKey: number, blobs: readonly PayloadBlob[], keyId: string | null): void;
  /** Records that run `runKey` reaches every blob `row` refers to, directly or through `$tree` blobs. */
  registerRow(runKey: number, row: StepRecord): void;
  /** The write's transaction committed: what it registered is remembered. */
  settle(): void;
  /** The write's transaction rolled back: what it registered is forgotten. */
  discard(): void;
  /**
   * Called inside a purge's transaction once the runs' rows are gone and the
   * runs are marked purged: drops their claims on the blobs they reached,
   * hands a blob another live run reaches to that run, and removes the rest:
   * their bodies go at once, their rows (a digest each) at the next
   * compaction. Returns how many blobs it removed.
   */
  release(runs: readonly ReleasedRun[]): number;
}

// Runs whose registered blobs are remembered between writes; a recorder writes one run at a time.
const REMEMBERED_RUNS = 4;

/**
 * Keeps, for every blob, the run that first stored it (`blobs.owner_key`) and
 * every other run whose rows reach it (`blob_refs`, migration 6), so that a
 * purge only looks at the blobs the purged rows reach. The invariant: every
 * blob a step row reaches is owned by the row's run or has a `blob_refs` pair
 * for it. A step of a recording usually adds nothing: its new blobs are its
 * own, and the blobs it refers to again are remembered per run in memory, so
 * most of a step's references cost a set lookup, not a query.
 */
export function blobOwnership(db: Database.Database, sealer: PayloadSealer): BlobOwnership {
  const statements = Object.fromEntries(
    Object.entries(OWNERSHIP_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
  ) as {
    [Name in keyof typeof OWNERSHIP_SQL]: Database.Statement;
  };
  statements.addReferences.pluck();
  statements.bodiesByIds.raw();
  const remembered = new Map<number, Set<string>>();
  // What the open write has registered, by run: remembered only once it commits.
  const pending = new Map<number, Set<string>>();
  // Bodies of the blobs the open write stored new, by digest.
  const inserted = new Map<string, string>();

  const isKnown = (runKey: number, digest: string): boolean =>
    remembered.get(runKey)?.has(digest) === true || pending.get(runKey)?.has(digest) === true;
  const markKnown = (runKey: number, digest: string): void => {
    let digests = pending.get(runKey);
    if (digests === undefined) pending.set(runKey, (digests = new Set()));
    digests.add(digest);
  };

  // Marks every blob `references` names as reached by `runKey`, level by level, a few statements per
  // level whatever their number (a replay writes a whole run at once). A blob the run stored is its own,
  // and what its body refers to was reached when it was stored; any other gets a pair, and a tree whose
  // pair is new brings what it refers to, as a purge's closure reads it. A pair that existed was
  // registered with everything its tree reaches. A reference to a blob that is not stored keeps nothing.
  const reach = (runKey: number, references: References): void => {
    let frontier = references;
    while (frontier.all.size > 0) {
      const next = noReferences();
      const unknown: string[] = [];
      for (const digest of frontier.all) {
        if (isKnown(runKey, digest)) continue;
        markKnown(runKey, digest);
        if (!inserted.has(digest)) unknown.push(digest);
      }
      if (unknown.length === 0) return;
      const pairs: Array<[number, number]> = [];
      const trees = new Set<number>();
      for (const blob of statements.blobsByDigests.all(JSON.stringify(unknown)) as Array<{
        id: number;
        digest: string;
        owner_key: number | null;
      }>) {
        if (blob.owner_key === runKey) continue;
        pairs.push([blob.id, runKey]);
        if (frontier.trees.has(blob.digest)) trees.add(blob.id);
      }
      if (pairs.length === 0) return;
      const opened = (statements.addReferences.all(JSON.stringify(pairs)) as number[]).filter((id) => trees.has(id));
      if (opened.length === 0) return;
      for (const [digest, body] of statements.bodiesByIds.all(JSON.stringify(opened)) as Array<[string, StoredBody]>)
        collectReferences(sealer.open(body, `blob ${digest}`), next);
      frontier = next;
    }
  };

  return {
    insertBlobs(runKey, blobs, keyId) {
      const nested = noReferences();
      // A write of several blobs (a replay's whole run, a run's first row) mostly holds blobs the store has
      // already, under a key that outlives this run's: one query finds them, and they are neither sealed nor
      // written again. A step's one new blob is not worth the query.
      const kept = new Set<string>();
      if (blobs.length > 1)
        for (const stored of statements.storedKeys.all(JSON.stringify(blobs.map((blob) => blob.digest))) as Array<{
          digest: string;
          key_id: string | null;
        }>)
          if (!outlives(keyId, stored.key_id)) kept.add(stored.digest);
      for (const blob of blobs) {
        if (inserted.has(blob.digest) || kept.has(blob.digest)) continue;
        const body = keyId === null ? blob.body : sealer.sealBinary(blob.body, keyId);
        const stored = statements.insertBlob.get(blob.digest, runKey, keyId, body) as { owner_key: number } | undefined;
        // Kept as it was, or sealed again for its owner: this run's rows register their claim on it.
        if (stored?.owner_key !== runKey) continue;
        inserted.set(blob.digest, blob.body);
        markKnown(runKey, blob.digest);
        // What a blob the run owns refers to is the run's to reach, whichever row refers to the blob. Most
        // bodies (a tool output) refer to nothing, and a plain search says so faster than the pattern.
        if (blob.body.includes('{"$')) collectReferences(blob.body, nested);
      }
      reach(runKey, nested);
    },
    registerRow(runKey, row) {
      const references = noReferences();
      collectRowReferences([row.messageSegment, row.request, row.response, row.message, row.checkpoint], references);
      reach(runKey, references);
    },
    settle() {
      for (const [runKey, digests] of pending) {
        const known = remembered.get(runKey);
        if (known === undefined) {
          remembered.set(runKey, digests);
          const oldest = remembered.keys().next();
          if (remembered.size > REMEMBERED_RUNS && oldest.done !== true) remembered.delete(oldest.value);
        } else {
          for (const digest of digests) known.add(digest);
        }
      }
      pending.clear();
      inserted.clear();
    },
    discard() {
      pending.clear();
      inserted.clear();
    },
    release(runs) {
      const reachers = new Map<string, number[]>();
      for (const { runKey, references } of runs) {
        remembered.delete(runKey);
        for (const digest of references.all) {
          const keys = reachers.get(digest);
          if (keys === undefined) reachers.set(digest, [runKey]);
          else keys.push(runKey);
        }
      }
      if (reachers.size === 0) return 0;
      // A handful of statements per purge, whatever its size: most candidates are one run's own blobs.
      const candidates = statements.candidates.all(JSON.stringify([...reachers.keys()])) as Array<{
        id: number;
        digest: string;
        owner_key: number | null;
        owner_live: number;
      }>;
      const claims: Array<[number, number]> = [];
      const orphaned: number[] = [];
      for (const blob of candidates) {
        // Every candidate is a blob some run in `reachers` reaches.
        for (const runKey of reachers.get(blob.digest) ?? [])
          if (runKey !== blob.owner_key) claims.push([blob.id, runKey]);
        if (blob.owner_live !== 1) orphaned.push(blob.id);
      }
      if (claims.length > 0) statements.dropReferences.run(JSON.stringify(claims));
      if (orphaned.length === 0) return 0;
      // A blob whose owner is gone goes to another live run that reaches it, or goes.
      const doomed: number[] = [];
      for (const { id, heir } of statements.heirs.all(JSON.stringify(orphaned)) as Array<{
        id: number;
        heir: number | null;
      }>) {
        if (heir === null) {
          doomed.push(id);
        } else {
          statements.setOwner.run(heir, id);
          statements.dropReference.run(id, heir);
        }
      }
      if (doomed.length === 0) return 0;
      const ids = JSON.stringify(doomed);
      statements.dropAllReferences.run(ids);
      return statements.removeBlobs.run(ids).changes;
    },
  };
}
