import type { Migration } from '../sqlite/migration.js';

/**
 * Migration 1: the whole schema of SQLite's nine migrations at once (no
 * PostgreSQL store had a history before it), in PostgreSQL's terms.
 *
 * - Every payload column is `text`, byte for byte: payloads are canonical
 *   JSON (lone surrogates escaped), and later sealed ciphertext.
 * - Runs get a `run_key` that grows as they are made, and steps are keyed by
 *   (run_key, step): a run's rows are one range of the primary key, in step
 *   order, and a read of a run's steps never sorts.
 * - Timestamps are ISO text compared byte by byte (`COLLATE "C"`), whatever
 *   the database's collation: the order a page or an expiry query walks.
 * - `refs` lists what a row or a blob refers to directly (a step's
 *   conversation segment and every `$blob` / `$tree` reference in its
 *   payloads; the references a blob's body holds), so that the server knows
 *   every reference even once payloads are sealed. `checkpoint_refs` and
 *   `message_refs` are the subsets a restore reads, which it follows on the
 *   server through `blobs.refs` in one statement.
 *
 * Blob liveness: a purge deletes a blob the purged rows reached only when no
 * remaining row and no remaining blob refers to it. `blob_reach` holds one
 * (digest, run) pair for every blob a run's rows refer to directly, written
 * with the rows (a step adds the pairs of the blobs it is the first of its
 * run to refer to: one or two, with an entry in each of its two b-trees);
 * "does any run still refer to it" is then one probe of the digest's b-tree,
 * which stops at the first pair,
 * however many runs share the blob. A GIN index on `steps.refs` answered the
 * same question by reading the digest's whole posting list: measured here,
 * a purge of one 10-step run took 2 ms among 2,000 runs sharing their
 * request head and 24 ms among 50,000, growing with the store; with the pairs
 * it stays flat (see the README's figures). Blobs referring to blobs (a `$tree` body) are found through
 * a GIN index on `blobs.refs`: trees are made per state, so few refer to the
 * same blob. A reference count per blob would have done it with one row per
 * blob, but every step of every writer would update the same hot rows (a
 * build's request head), serialising the writers on one row lock.
 */
export const FIRST_SCHEMA: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, steps, blobs, structural records, settings and export keys',
    sql: `
      CREATE TABLE runs (
        run_key               bigserial PRIMARY KEY,
        run_id                text NOT NULL UNIQUE,
        mode                  text NOT NULL,
        agent_name            text NOT NULL,
        build                 text NOT NULL,
        code_hash             text NOT NULL,
        scenario              text,
        input                 text NOT NULL,
        world_at              text,
        seed                  bigint,
        status                text NOT NULL,
        outcome               text,
        error                 text,
        parent_run_id         text REFERENCES runs (run_id),
        parent_step           integer,
        override              text,
        override_changes      text,
        source_run_id         text,
        source_cassette       text,
        findings              text,
        canonical_form        text NOT NULL,
        machine_version       integer NOT NULL,
        created_at            text COLLATE "C" NOT NULL,
        finished_at           text,
        step_count            integer NOT NULL DEFAULT 0,
        owner_pid             integer,
        owner_host            text,
        owner_token           text,
        lease_expires_at      bigint,
        side_effects          text,
        resumes               text,
        tier                  text NOT NULL DEFAULT 'full',
        expires_at            text COLLATE "C",
        structural_expires_at text COLLATE "C",
        purged_at             text,
        purge_reason          text,
        usage                 text
      );
      -- A page of runs walks this backwards; (created_at, run_key) is the order of the listing and of its cursor.
      CREATE INDEX runs_by_created_at ON runs (created_at, run_key);
      CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
      CREATE INDEX runs_by_source ON runs (source_run_id) WHERE source_run_id IS NOT NULL;
      -- Only runs that still hold their full tier: a purge takes a run out of it.
      CREATE INDEX runs_by_expiry ON runs (expires_at) WHERE purged_at IS NULL AND expires_at IS NOT NULL;

      CREATE TABLE steps (
        run_key         bigint NOT NULL REFERENCES runs (run_key),
        step            integer NOT NULL CHECK (step >= 0),
        kind            text,
        call_index      integer,
        request_hash    text,
        request         text,
        message_count   integer,
        response        text,
        is_error        boolean NOT NULL DEFAULT false,
        provenance      text,
        message         text,
        message_digest  text,
        checkpoint      text NOT NULL,
        checkpoint_full boolean NOT NULL,
        message_segment text,
        side_effect     boolean NOT NULL DEFAULT false,
        refs            text[] NOT NULL DEFAULT '{}',
        checkpoint_refs text[] NOT NULL DEFAULT '{}',
        message_refs    text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (run_key, step)
      );
      CREATE INDEX steps_with_segments ON steps (run_key, step) WHERE message_segment IS NOT NULL;
      CREATE INDEX steps_full ON steps (run_key, step) WHERE checkpoint_full;

      CREATE TABLE blobs (
        digest text PRIMARY KEY,
        body   text NOT NULL,
        refs   text[] NOT NULL DEFAULT '{}',
        -- The key a sealed body was sealed with; NULL: in the clear.
        key_id text
      );
      -- Most blobs (a tool output) refer to nothing, and stay out of it.
      CREATE INDEX blobs_by_ref ON blobs USING gin (refs) WHERE refs <> '{}';

      -- Which runs' rows refer to a blob directly: a purge removes its runs' pairs (one range of the key
      -- each) with their rows, then probes blob_reach_by_digest for each blob they referred to.
      CREATE TABLE blob_reach (
        run_key bigint NOT NULL,
        digest  text NOT NULL,
        PRIMARY KEY (run_key, digest)
      );
      CREATE INDEX blob_reach_by_digest ON blob_reach (digest);

      CREATE TABLE structural_cassettes (
        run_key    bigint PRIMARY KEY REFERENCES runs (run_key),
        expires_at text COLLATE "C",
        body       text NOT NULL
      );
      CREATE INDEX structural_by_expiry ON structural_cassettes (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE store_settings (
        name  text PRIMARY KEY,
        value text NOT NULL
      );
      INSERT INTO store_settings (name, value) VALUES
        ('store_id', left(encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), 16)),
        ('full_retention_hours', '72'),
        ('structural_retention_days', '90');

      CREATE TABLE export_keys (
        key_id       text PRIMARY KEY,
        secret       bytea NOT NULL CHECK (length(secret) = 32),
        delete_after text COLLATE "C" NOT NULL
      );
    `,
  },
];
