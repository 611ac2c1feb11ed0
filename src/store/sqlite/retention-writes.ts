import type Database from 'better-sqlite3';
import { ForkpointError } from '../../errors/index.js';
import { canonicalJson } from '../../json/index.js';
import type { FullTierPurge, PurgeCounts } from '../store.js';
import type { BlobOwnership, ReleasedRun, StoredBody } from './blob-ownership.js';
import { closeOverTrees, collectRowReferences, noReferences } from '../blob-references.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { errorToText, findingsToText } from './row-mapping.js';
import { allStepsOf, keyOfRun } from './step-ranges.js';

/** The SQLite store's retention writes: structural records, and purges of full tiers. */
export interface RetentionWrites {
  saveStructural(runId: string, body: string): void;
  purgeRuns(purges: readonly FullTierPurge[]): PurgeCounts;
  dropStructural(runIds: readonly string[]): number;
}

// The step columns that refer to blobs, in the order collectRowReferences reads them.
const REFERRING_COLUMNS = 'message_segment, request, response, message, checkpoint';

/**
 * Prepares the writes of {@link RetentionWrites} on `db`, each one immediate
 * transaction; `sealer` opens the payloads a purge reads references from.
 */
export function retentionWrites(
  db: Database.Database,
  ownership: BlobOwnership,
  sealer: PayloadSealer,
): RetentionWrites {
  const statements = {
    readBlobs: db
      .prepare('SELECT digest, body FROM blobs WHERE digest IN (SELECT value FROM json_each(?)) AND body IS NOT NULL')
      .raw(),
    runKey: db.prepare('SELECT run_key FROM runs WHERE run_id = ?').pluck(),
    runPayloads: db.prepare(`SELECT ${REFERRING_COLUMNS} FROM steps WHERE ${allStepsOf('@run_key')}`).raw(),
    deleteSteps: db.prepare(`DELETE FROM steps WHERE ${allStepsOf(keyOfRun('@run_id'))}`),
    redactRun: db.prepare(
      `UPDATE runs SET input = @input, error = @error, override = @override, override_changes = NULL, findings = @findings,
         purged_at = @purged_at, purge_reason = @purge_reason
       WHERE run_id = @run_id AND purged_at IS NULL`,
    ),
    // Keyed by the run's integer key, and carrying its structural expiry, so that gc finds expired ones
    // through an index (migration 7).
    saveStructural: db.prepare(
      `INSERT INTO structural_cassettes (run_key, expires_at, body) SELECT run_key, structural_expires_at, @body FROM runs WHERE run_id = @run_id
       ON CONFLICT (run_key) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at`,
    ),
    dropStructural: db.prepare(`DELETE FROM structural_cassettes WHERE run_key = ${keyOfRun('?')}`),
    // Every blob a run holds a claim on, found without its rows: a scan, for the rare purge that cannot read them.
    claimedBlobs: db
      .prepare(
        `SELECT digest FROM blobs WHERE owner_key = @run_key AND body IS NOT NULL
         UNION SELECT blobs.digest FROM blob_refs JOIN blobs ON blobs.id = blob_refs.blob_id WHERE blob_refs.run_key = @run_key`,
      )
      .pluck(),
  };

  const saveStructural = (runId: string, body: string): void => {
    if (statements.saveStructural.run({ run_id: runId, body }).changes !== 1)
      throw new ForkpointError('INTERNAL', `run ${runId} does not exist`);
  };

  // A payload whose key is already gone (deleted before gc purged its run, which gc does only to a run a
  // live process was still writing) cannot say which blobs it refers to: it is counted, and the purge
  // falls back on every blob the run has a claim on.
  const unread = { payloads: 0 };
  const readable = (text: StoredBody | null, whose: string): string | null => {
    if (text === null) return null;
    const plain = sealer.tryOpen(text, whose);
    if (plain === undefined) unread.payloads++;
    return plain ?? null;
  };

  // A purge reads only the purged runs' rows and the blobs they reach: which of those another run still
  // reaches is kept by ownership (migration 6), so the cost is the purged runs', not the database's.
  const purgeRuns = db.transaction((purges: readonly FullTierPurge[]): PurgeCounts => {
    // Tree bodies read once per purge, however many of its runs reach them.
    const bodies = new Map<string, string>();
    const readBodies = (digests: readonly string[]): string[] => {
      const missing = digests.filter((digest) => !bodies.has(digest));
      if (missing.length > 0)
        for (const [digest, body] of statements.readBlobs.all(JSON.stringify(missing)) as Array<[string, StoredBody]>) {
          const plain = readable(body, `blob ${digest}`);
          if (plain !== null) bodies.set(digest, plain);
        }
      return digests.flatMap((digest) => bodies.get(digest) ?? []);
    };
    const released: ReleasedRun[] = [];
    for (const { runId } of purges) {
      const runKey = statements.runKey.get(runId) as number | undefined;
      if (runKey === undefined) continue;
      const references = noReferences();
      unread.payloads = 0;
      // The segment's digest is not sealed; the payload columns after it are.
      for (const [segment, ...payloads] of statements.runPayloads.all({ run_key: runKey }) as Array<
        [string | null, ...Array<StoredBody | null>]
      >)
        collectRowReferences([segment, ...payloads.map((stored) => readable(stored, `run ${runId}`))], references);
      closeOverTrees(references, readBodies);
      if (unread.payloads > 0)
        for (const digest of statements.claimedBlobs.all({ run_key: runKey }) as string[]) references.all.add(digest);
      released.push({ runKey, references });
    }
    let steps = 0;
    for (const { runId, purge, redacted, structural } of purges) {
      if (structural !== undefined) statements.saveStructural.run({ run_id: runId, body: structural });
      steps += statements.deleteSteps.run({ run_id: runId }).changes;
      const changes = statements.redactRun.run({
        run_id: runId,
        input: canonicalJson(redacted.input),
        error: errorToText(redacted.error),
        override: redacted.override === null ? null : canonicalJson(redacted.override),
        findings: findingsToText(redacted.findings),
        purged_at: purge.at,
        purge_reason: purge.reason,
      }).changes;
      if (changes !== 1) throw new ForkpointError('INTERNAL', `run ${runId} does not exist or was purged already`);
    }
    // After the runs are marked purged: a purged run reaches no blob.
    return { steps, blobs: ownership.release(released) };
  });

  const dropStructural = db.transaction((runIds: readonly string[]) =>
    runIds.reduce((count, runId) => count + statements.dropStructural.run(runId).changes, 0),
  );

  return {
    saveStructural,
    purgeRuns: (purges) => purgeRuns.immediate(purges),
    dropStructural: (runIds) => dropStructural.immediate(runIds),
  };
}
