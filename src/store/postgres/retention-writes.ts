import { ForkpointError } from '../../errors/index.js';
import { canonicalJson } from '../../json/index.js';
import type { FullTierPurge, PurgeCounts, Store } from '../store.js';
import { errorToText, findingsToText } from '../sqlite/row-mapping.js';
import type { PostgresConnection } from './postgres-connection.js';
import { statement } from './sql-statement.js';

const SQL = {
  saveStructural: statement(
    'save_structural',
    `INSERT INTO structural_cassettes (run_key, expires_at, body)
       SELECT run_key, structural_expires_at, $2 FROM runs WHERE run_id = $1
     ON CONFLICT (run_key) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at`,
  ),
  dropStructural: statement(
    'drop_structural',
    'DELETE FROM structural_cassettes WHERE run_key IN (SELECT run_key FROM runs WHERE run_id = ANY ($1::text[]))',
  ),
  // The purged runs' rows go, their summaries are redacted and their structural records stored, in one
  // statement; it returns every blob the rows referred to directly, where the blob deletion starts.
  purgeRows: statement(
    'purge_rows',
    `WITH wanted AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
         AS wanted (run_id, input, error, override, findings, purged_at, purge_reason, structural)
     ),
     target AS MATERIALIZED (
       SELECT runs.run_key, runs.structural_expires_at, wanted.* FROM wanted JOIN runs USING (run_id) WHERE runs.purged_at IS NULL
     ),
     saved AS (
       INSERT INTO structural_cassettes (run_key, expires_at, body)
         SELECT run_key, structural_expires_at, structural FROM target WHERE structural IS NOT NULL
       ON CONFLICT (run_key) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at
     ),
     deleted AS (DELETE FROM steps USING target WHERE steps.run_key = target.run_key RETURNING steps.run_key, steps.refs),
     -- The purged runs' pairs: a range of the primary key per run, the size of what it referred to.
     released AS (DELETE FROM blob_reach WHERE run_key = ANY (ARRAY(SELECT run_key FROM target))),
     redacted AS (
       UPDATE runs SET input = target.input, error = target.error, override = target.override, override_changes = NULL,
         findings = target.findings, purged_at = target.purged_at, purge_reason = target.purge_reason
       FROM target WHERE runs.run_key = target.run_key AND runs.purged_at IS NULL
       RETURNING runs.run_id
     )
     SELECT ARRAY(SELECT run_id FROM redacted) AS purged, (SELECT count(*)::integer FROM deleted) AS steps,
       ARRAY(SELECT DISTINCT ref FROM deleted, unnest(deleted.refs) AS ref) AS refs`,
  ),
  // Every blob the purged rows reached (closed over the blobs that refer further) goes, unless a remaining
  // run's rows refer to it (a pair in blob_reach: one b-tree probe), or a blob outside that closure does (it
  // stays, and so must what it refers to: the GIN index on blobs.refs), or a blob kept so refers to it. The
  // cost is the candidates', not the store's. The purged rows and their pairs are gone already, in this
  // transaction.
  deleteBlobs: statement(
    'delete_blobs',
    `WITH RECURSIVE reached (digest) AS (
       SELECT unnest($1::text[])
       UNION SELECT ref FROM reached JOIN blobs USING (digest), unnest(blobs.refs) AS ref WHERE blobs.refs <> '{}'
     ),
     candidates AS MATERIALIZED (SELECT blobs.digest, blobs.refs FROM reached JOIN blobs USING (digest)),
     roots AS (
       SELECT candidates.digest FROM candidates
       -- Scalar subqueries with a LIMIT, not EXISTS: the server runs them once per candidate, one index
       -- probe each, where it would turn an EXISTS into a scan of the whole table when it guesses many.
       WHERE (SELECT 1 FROM blob_reach WHERE blob_reach.digest = candidates.digest LIMIT 1) IS NOT NULL
          OR (SELECT 1 FROM blobs AS other
              WHERE other.refs @> ARRAY[candidates.digest] AND other.refs <> '{}'
                AND NOT EXISTS (SELECT 1 FROM candidates AS mine WHERE mine.digest = other.digest)
              LIMIT 1) IS NOT NULL
     ),
     kept (digest) AS (
       SELECT digest FROM roots
       UNION SELECT ref FROM kept JOIN candidates USING (digest), unnest(candidates.refs) AS ref
     )
     DELETE FROM blobs USING candidates
     WHERE blobs.digest = candidates.digest AND NOT EXISTS (SELECT 1 FROM kept WHERE kept.digest = candidates.digest)`,
  ),
} as const;

// The tables a compaction vacuums, so that the space of what purges deleted is reused.
const TABLES = ['steps', 'blobs', 'blob_reach', 'runs', 'structural_cassettes', 'export_keys'];

/** The PostgreSQL store's retention writes: structural records, purges of full tiers, compaction. */
export function retentionWrites(
  connection: PostgresConnection,
  blobLock: string,
  statementTimeoutMs: number,
): Pick<Store, 'saveStructural' | 'purgeRuns' | 'dropStructural' | 'compact'> {
  const { pooled } = connection;
  return {
    async saveStructural(runId, body) {
      if ((await pooled.count(SQL.saveStructural, [runId, body])) !== 1)
        throw new ForkpointError('INTERNAL', `run ${runId} does not exist`);
    },
    dropStructural: (runIds) => pooled.count(SQL.dropStructural, [runIds]),
    // One short transaction: the blob lock first (writers wait for it only while the purge decides which blobs
    // go; readers never do), then the rows, then the blobs. All or nothing. Planned for its own parameters:
    // a generic plan guesses how many rows and references a purge has, and on a store of a few thousand runs
    // guessed a scan of every reference pair cheaper than a probe per candidate.
    purgeRuns: (purges: readonly FullTierPurge[]) =>
      connection.transaction(async (executor): Promise<PurgeCounts> => {
        const column = (value: (purge: FullTierPurge) => string | null): Array<string | null> => purges.map(value);
        const [result] = await executor.rows<{ purged: string[]; steps: number; refs: string[] }>(SQL.purgeRows, [
          column((purge) => purge.runId),
          column((purge) => canonicalJson(purge.redacted.input)),
          column((purge) => errorToText(purge.redacted.error)),
          column((purge) => (purge.redacted.override === null ? null : canonicalJson(purge.redacted.override))),
          column((purge) => findingsToText(purge.redacted.findings)),
          column((purge) => purge.purge.at),
          column((purge) => purge.purge.reason),
          column((purge) => purge.structural ?? null),
        ]);
        const purged = new Set(result?.purged ?? []);
        const missing = purges.find((purge) => !purged.has(purge.runId));
        if (result === undefined || missing !== undefined || purged.size !== purges.length)
          throw new ForkpointError(
            'INTERNAL',
            `run ${missing?.runId ?? purges[0]?.runId ?? '?'} does not exist or was purged already`,
          );
        const blobs = result.refs.length === 0 ? 0 : await executor.count(SQL.deleteBlobs, [result.refs]);
        return { steps: result.steps, blobs };
      }, `BEGIN; SET LOCAL plan_cache_mode = force_custom_plan; SELECT pg_advisory_xact_lock(${blobLock}::bigint)`),
    // Plain VACUUM, which takes no lock a reader or a writer waits for: the space of deleted rows is reused,
    // and empty pages at a table's end go back to the file system. It may well take longer than a statement
    // may, and runs outside any transaction, so on its own, without the timeout, which it then sets back.
    compact: () =>
      connection.script(async (run) => {
        await run('SET statement_timeout = 0');
        try {
          await run(`VACUUM ${TABLES.join(', ')}`);
        } finally {
          await run(`SET statement_timeout = ${statementTimeoutMs}`);
        }
      }),
  };
}
