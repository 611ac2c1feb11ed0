import type { Migration } from './migration.js';

/**
 * Migrations 5-8: what a store shared by processes and kept for months needs:
 * owner leases and resumes, blob owners, indexes for paging and retention,
 * store settings and export keys.
 */
export const SHARED_STORE: readonly Migration[] = [
  {
    version: 5,
    name: 'owner leases, resumes and side effects',
    // A running run's owner was known by its PID alone, which cannot tell a dead recorder from a live
    // process that got its PID (a recorder is often PID 1 in a container): owners now hold a lease they
    // renew, by a token every write names, and say which host and PID namespace their PID belongs to.
    // Runs recorded before keep their PID check. A run's resumes are its history of attempts: a step's
    // attempt is read off it, since every attempt starts right after the last committed step. Steps that
    // called a side-effecting tool for real past a recording are marked, and a run stores the firewall it
    // ran under. A fork stores what its override changed in step N's response, field by field.
    sql: `
      ALTER TABLE runs ADD COLUMN owner_host TEXT;
      ALTER TABLE runs ADD COLUMN owner_token TEXT;
      ALTER TABLE runs ADD COLUMN lease_expires_at INTEGER;
      ALTER TABLE runs ADD COLUMN side_effects TEXT;
      ALTER TABLE runs ADD COLUMN resumes TEXT;
      ALTER TABLE runs ADD COLUMN override_changes TEXT;
      ALTER TABLE steps ADD COLUMN side_effect INTEGER NOT NULL DEFAULT 0 CHECK (side_effect IN (0, 1));
    `,
  },
  {
    version: 6,
    name: 'blob owners',
    // A purge had to scan every step row in the file for the references that remain, so a capture policy
    // that drops most runs cost O(database) per dropped run (43 ms at 1.1k runs, 1.6 s at 30k). Each blob
    // now names the run that first stored it (owner_key, before the body so that reading it never walks
    // the body's overflow pages), and blob_refs lists every other run whose rows reach it, directly or
    // through $tree blobs. Most blobs belong to one run, so a step writes no row here; a run that reaches
    // a blob another run stored (the build's request head, a tool output two runs got alike) writes one
    // pair once. A purge then checks only the blobs its own rows reach. No foreign keys: the store keeps
    // both tables, and a check on every blob delete would cost a lookup for nothing.
    // A purged blob's body is set to NULL at once (secure_delete zeroes it), and the row, which holds only
    // its digest, goes later, in bulk (blobs_removed): deleting it at once cost a write to a random page of
    // the digest index for every blob, the largest part of a dropped run's purge.
    // Existing rows are walked once here (json_tree matches the references the store's own pattern finds:
    // {"$blob": digest} and {"$tree": digest}, and a row's conversation segment), and the table is rebuilt
    // to put owner_key before the body. Blob ids stay.
    sql: `
      CREATE TEMP TABLE blob_reach (
        digest  TEXT NOT NULL,
        run_key INTEGER NOT NULL,
        PRIMARY KEY (digest, run_key)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO temp.blob_reach (digest, run_key)
        WITH RECURSIVE reached (run_key, digest, tree) AS (
          SELECT run_key, message_segment, 0 FROM steps WHERE message_segment IS NOT NULL
          UNION
          SELECT steps.run_key, ref.value, ref.key = '$tree'
            FROM steps, json_each(json_array(steps.request, steps.response, steps.message, steps.checkpoint)) AS payload,
              json_tree(payload.value) AS ref
            WHERE payload.type = 'text' AND instr(payload.value, '"$') > 0 AND json_valid(payload.value)
              AND ref.key IN ('$blob', '$tree') AND ref.type = 'text'
          UNION
          SELECT reached.run_key, ref.value, ref.key = '$tree'
            FROM reached JOIN blobs ON blobs.digest = reached.digest, json_tree(blobs.body) AS ref
            WHERE reached.tree AND json_valid(blobs.body) AND ref.key IN ('$blob', '$tree') AND ref.type = 'text'
        )
        SELECT digest, run_key FROM reached;

      CREATE TABLE blobs_v6 (
        id        INTEGER PRIMARY KEY,
        digest    TEXT NOT NULL UNIQUE,
        owner_key INTEGER,
        body      TEXT
      ) STRICT;
      INSERT INTO blobs_v6 (id, digest, owner_key, body)
        SELECT id, digest, (SELECT MIN(run_key) FROM temp.blob_reach WHERE blob_reach.digest = blobs.digest), body
        FROM blobs ORDER BY id;
      CREATE TABLE blob_refs (
        blob_id INTEGER NOT NULL,
        run_key INTEGER NOT NULL,
        PRIMARY KEY (blob_id, run_key)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO blob_refs (blob_id, run_key)
        SELECT blobs_v6.id, blob_reach.run_key FROM temp.blob_reach JOIN blobs_v6 USING (digest)
        WHERE blob_reach.run_key <> blobs_v6.owner_key ORDER BY 1, 2;
      DROP TABLE blobs;
      ALTER TABLE blobs_v6 RENAME TO blobs;
      CREATE INDEX blobs_removed ON blobs (id) WHERE body IS NULL;
      DROP TABLE temp.blob_reach;
    `,
  },
  {
    version: 7,
    name: 'indexes for paging and retention',
    // `forkpoint runs` loaded every run (1.9 s and 588 MiB at 100k runs) and gc did too. Runs are now read a
    // page at a time, newest first, through runs_by_created_at (the run key, their rowid, breaks ties in
    // the order they were made); gc reads only the runs whose full tier expired, through runs_by_expiry,
    // which migration 4 dropped when nothing read it (a purge takes a run out of it), and the structural
    // records that expired, through the expiry each record now carries. Each costs a new run one index
    // entry, at the end of its index: a page write per run, not per step.
    // Structural records are keyed by their run's integer key, like steps, instead of its random id, whose
    // index cost every record a write to a random page. A record without its run keeps a key no run has,
    // so that the reference check refuses the database rather than the rebuild dropping the record.
    sql: `
      CREATE INDEX runs_by_created_at ON runs (created_at);
      CREATE INDEX runs_by_expiry ON runs (expires_at) WHERE purged_at IS NULL AND expires_at IS NOT NULL;
      CREATE TABLE structural_v7 (
        run_key    INTEGER PRIMARY KEY REFERENCES runs (run_key),
        expires_at TEXT,
        body       TEXT NOT NULL
      ) STRICT;
      INSERT INTO structural_v7 (run_key, expires_at, body)
        SELECT COALESCE(runs.run_key, -structural_cassettes.rowid), runs.structural_expires_at, structural_cassettes.body
        FROM structural_cassettes LEFT JOIN runs USING (run_id) ORDER BY 1;
      DROP TABLE structural_cassettes;
      ALTER TABLE structural_v7 RENAME TO structural_cassettes;
      CREATE INDEX structural_by_expiry ON structural_cassettes (expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
  {
    version: 8,
    name: 'store settings and export keys',
    // A store has an id (a sealed cassette says which store holds its key) and its own retention periods
    // (the chapter's 72 hours and 90 days by default), read when a run is made. Full-tier exports are sealed
    // with a key per tier and expiry day, made when the first run expiring that day is, and deleted once the
    // day is over: an exported file outlives its key uselessly. Runs made before this migration get theirs now.
    sql: `
      CREATE TABLE store_settings (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      INSERT INTO store_settings (name, value) VALUES
        ('store_id', lower(hex(randomblob(8)))),
        ('full_retention_hours', '72'),
        ('structural_retention_days', '90');

      CREATE TABLE export_keys (
        key_id       TEXT PRIMARY KEY,
        secret       BLOB NOT NULL CHECK (length(secret) = 32),
        delete_after TEXT NOT NULL
      ) STRICT;
      INSERT INTO export_keys (key_id, secret, delete_after)
        SELECT key_id, randomblob(32), delete_after FROM (
          SELECT DISTINCT 'full:' || substr(expires_at, 1, 10) AS key_id,
            strftime('%Y-%m-%dT00:00:00.000Z', substr(expires_at, 1, 10), '+1 day') AS delete_after
          FROM runs WHERE tier = 'full' AND purged_at IS NULL AND expires_at IS NOT NULL);
    `,
  },
];
