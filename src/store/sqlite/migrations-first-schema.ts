import type { Migration } from './migration.js';

/** Migrations 1-4: runs, steps and blobs, then tiers, conversation segments and integer run keys. */
export const FIRST_SCHEMA: readonly Migration[] = [
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
];
