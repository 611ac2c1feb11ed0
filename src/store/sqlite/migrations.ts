/** One numbered schema change. Applied in order, once, and recorded in `schema_migrations`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema, as a history. Never edit an applied migration: add the next one.
 *
 * Layout (see DESIGN.md, "Checkpoint storage"): `steps` holds one row per
 * observation with the checkpoint after it, keyed by its run's integer key
 * (runs are numbered as they are created) and step, small enough to stay inside the
 * B-tree (payloads over 256 bytes live in `blobs`, stored once by digest and
 * shared by steps, messages and checkpoints). Storage grows linearly with a
 * run's length, and a fork adds rows only for its own tail.
 *
 * `source_run_id` has no foreign key on purpose: a replay of a cassette file
 * names the run it recorded even when that run lives in another database.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, steps and blobs',
    sql: `
      CREATE TABLE runs (
        run_id          TEXT PRIMARY KEY,
        mode            TEXT NOT NULL,
        agent_name      TEXT NOT NULL,
        build           TEXT NOT NULL,
        code_hash       TEXT NOT NULL,
        scenario        TEXT,
        input           TEXT NOT NULL,
        world_at        TEXT,
        seed            INTEGER,
        status          TEXT NOT NULL,
        outcome         TEXT,
        error           TEXT,
        parent_run_id   TEXT REFERENCES runs (run_id),
        parent_step     INTEGER,
        override        TEXT,
        source_run_id   TEXT,
        source_cassette TEXT,
        findings        TEXT,
        canonical_form  TEXT NOT NULL,
        machine_version INTEGER NOT NULL,
        created_at      TEXT NOT NULL,
        finished_at     TEXT,
        step_count      INTEGER NOT NULL DEFAULT 0,
        owner_pid       INTEGER
      ) STRICT;
      CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
      CREATE INDEX runs_by_source ON runs (source_run_id) WHERE source_run_id IS NOT NULL;

      CREATE TABLE blobs (
        id     INTEGER PRIMARY KEY,
        digest TEXT NOT NULL UNIQUE,
        body   TEXT NOT NULL
      ) STRICT;

      CREATE TABLE steps (
        run_id          TEXT NOT NULL REFERENCES runs (run_id),
        step            INTEGER NOT NULL,
        kind            TEXT,
        call_index      INTEGER,
        request_hash    TEXT,
        request         TEXT,
        message_count   INTEGER,
        response        TEXT,
        is_error        INTEGER NOT NULL DEFAULT 0,
        provenance      TEXT,
        message         TEXT,
        message_digest  TEXT,
        checkpoint      TEXT NOT NULL,
        checkpoint_full INTEGER NOT NULL,
        PRIMARY KEY (run_id, step)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'tiers and retention',
    // Runs recorded before tiers existed are full-tier runs: they expire 72 hours after they were made.
    sql: `
      ALTER TABLE runs ADD COLUMN tier TEXT NOT NULL DEFAULT 'full';
      ALTER TABLE runs ADD COLUMN expires_at TEXT;
      ALTER TABLE runs ADD COLUMN structural_expires_at TEXT;
      ALTER TABLE runs ADD COLUMN purged_at TEXT;
      ALTER TABLE runs ADD COLUMN purge_reason TEXT;
      UPDATE runs SET
        expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+72 hours'),
        structural_expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+90 days');
      CREATE INDEX runs_by_expiry ON runs (expires_at) WHERE purged_at IS NULL AND expires_at IS NOT NULL;

      CREATE TABLE structural_cassettes (
        run_id TEXT PRIMARY KEY REFERENCES runs (run_id),
        body   TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'conversation segments',
    // Rows written before this migration have none: their runs' messages are read row by row.
    sql: `
      ALTER TABLE steps ADD COLUMN message_segment TEXT;
      CREATE INDEX steps_with_segments ON steps (run_id, step) WHERE message_segment IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'steps in creation order',
    // Steps were keyed by (run_id, step), and run ids are random: every new run's rows landed somewhere in
    // the middle of the table, splitting a page that no recent commit had touched. Runs now get an integer
    // key that grows as they are made, and a step row's rowid is run_key * 2^24 + step: a run's rows go
    // at the end of the table, onto the page the previous commit wrote, in step order. A rowid table, not a
    // WITHOUT ROWID one: SQLite fills an appended rowid leaf to the brim and starts the next one, where an
    // index b-tree (WITHOUT ROWID) rebalances the last three leaves whenever one overflows, and with rows
    // of half a kilobyte that was four page writes every few steps. Measured here on the bench's 201-step
    // runs, not counting conversation segments: 2.2 pages written per step keyed by (run_key, step)
    // WITHOUT ROWID, 1.5 as this rowid table; random run ids as the leading key cost more than either.
    // The tables are rebuilt (SQLite cannot change a primary key in place); run ids and rowids stay.
    // runs_by_expiry is not rebuilt: no query reads it (gc goes through every run), and every new run
    // paid a page write for it.
    sql: `
      CREATE TABLE runs_v4 (
        run_key               INTEGER PRIMARY KEY,
        run_id                TEXT NOT NULL UNIQUE,
        mode                  TEXT NOT NULL,
        agent_name            TEXT NOT NULL,
        build                 TEXT NOT NULL,
        code_hash             TEXT NOT NULL,
        scenario              TEXT,
        input                 TEXT NOT NULL,
        world_at              TEXT,
        seed                  INTEGER,
        status                TEXT NOT NULL,
        outcome               TEXT,
        error                 TEXT,
        parent_run_id         TEXT REFERENCES runs (run_id),
        parent_step           INTEGER,
        override              TEXT,
        source_run_id         TEXT,
        source_cassette       TEXT,
        findings              TEXT,
        canonical_form        TEXT NOT NULL,
        machine_version       INTEGER NOT NULL,
        created_at            TEXT NOT NULL,
        finished_at           TEXT,
        step_count            INTEGER NOT NULL DEFAULT 0,
        owner_pid             INTEGER,
        tier                  TEXT NOT NULL DEFAULT 'full',
        expires_at            TEXT,
        structural_expires_at TEXT,
        purged_at             TEXT,
        purge_reason          TEXT
      ) STRICT;
      INSERT INTO runs_v4
        SELECT rowid, run_id, mode, agent_name, build, code_hash, scenario, input, world_at, seed, status, outcome, error,
          parent_run_id, parent_step, override, source_run_id, source_cassette, findings, canonical_form, machine_version,
          created_at, finished_at, step_count, owner_pid, tier, expires_at, structural_expires_at, purged_at, purge_reason
        FROM runs ORDER BY rowid;

      CREATE TABLE steps_v4 (
        row_key         INTEGER PRIMARY KEY,
        run_key         INTEGER NOT NULL REFERENCES runs (run_key),
        step            INTEGER NOT NULL CHECK (step BETWEEN 0 AND 16777215),
        kind            TEXT,
        call_index      INTEGER,
        request_hash    TEXT,
        request         TEXT,
        message_count   INTEGER,
        response        TEXT,
        is_error        INTEGER NOT NULL DEFAULT 0,
        provenance      TEXT,
        message         TEXT,
        message_digest  TEXT,
        checkpoint      TEXT NOT NULL,
        checkpoint_full INTEGER NOT NULL,
        message_segment TEXT,
        CHECK (row_key = run_key * 16777216 + step)
      ) STRICT;
      INSERT INTO steps_v4
        SELECT runs_v4.run_key * 16777216 + step, runs_v4.run_key, step, kind, call_index, request_hash, request, message_count, response, is_error, provenance,
          message, message_digest, checkpoint, checkpoint_full, message_segment
        FROM steps JOIN runs_v4 USING (run_id) ORDER BY runs_v4.run_key, step;

      DROP TABLE steps;
      DROP TABLE runs;
      ALTER TABLE runs_v4 RENAME TO runs;
      ALTER TABLE steps_v4 RENAME TO steps;
      CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
      CREATE INDEX runs_by_source ON runs (source_run_id) WHERE source_run_id IS NOT NULL;
      CREATE INDEX steps_with_segments ON steps (run_key, step) WHERE message_segment IS NOT NULL;
    `,
  },
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

/** The newest schema version this build of forkpoint knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((newest, migration) => Math.max(newest, migration.version), 0);
