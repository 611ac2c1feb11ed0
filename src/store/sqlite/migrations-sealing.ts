import type { Migration } from './migration.js';

/** Migration 10: payloads sealed at rest. */
export const SEALED_PAYLOADS: readonly Migration[] = [
  {
    version: 10,
    name: 'sealed payloads: the key of each blob, and payload columns that take bytes',
    // Full-tier payloads are now sealed at rest under their run's tier key (export_keys), so that deleting
    // the key when its day is over shreds them whatever the file still holds. A blob shared by runs is
    // sealed under the latest-expiring key of the runs that stored it, and sealed again when a run with a
    // later key stores it: key_id says which (NULL: plain text), so that the decision reads no body. It
    // goes before the body, as owner_key does (migration 6), so that reading it never walks the body's
    // overflow pages; the table is rebuilt for that. A sealed body is bytes, not base64 text, which would
    // add a third to the largest part of the file: the body column takes both (a plain body is text).
    // The steps' payload columns take bytes too, for the same reason (a row's sealed payloads as base64
    // made the table half as large again, most of it the 37 characters of a small value's iv and tag);
    // SQLite cannot change a column's type in place, so the table is rebuilt, row keys unchanged.
    // Rows and blobs written before stay plain and read as they are. Blob ids stay.
    // The column is added first, then moved by the rebuild: adding it fails on a table that has it already,
    // so a database whose record of migrations lost this one is refused instead of losing its blobs' keys.
    sql: `
      ALTER TABLE blobs ADD COLUMN key_id TEXT;
      CREATE TABLE blobs_v10 (
        id        INTEGER PRIMARY KEY,
        digest    TEXT NOT NULL UNIQUE,
        owner_key INTEGER,
        key_id    TEXT,
        body      ANY CHECK (typeof(body) IN ('text', 'blob', 'null'))
      ) STRICT;
      INSERT INTO blobs_v10 (id, digest, owner_key, key_id, body)
        SELECT id, digest, owner_key, key_id, body FROM blobs ORDER BY id;
      DROP TABLE blobs;
      ALTER TABLE blobs_v10 RENAME TO blobs;
      CREATE INDEX blobs_removed ON blobs (id) WHERE body IS NULL;

      CREATE TABLE steps_v10 (
        row_key         INTEGER PRIMARY KEY,
        run_key         INTEGER NOT NULL REFERENCES runs (run_key),
        step            INTEGER NOT NULL CHECK (step BETWEEN 0 AND 16777215),
        kind            TEXT,
        call_index      INTEGER,
        request_hash    TEXT,
        request         ANY CHECK (typeof(request) IN ('text', 'blob', 'null')),
        message_count   INTEGER,
        response        ANY CHECK (typeof(response) IN ('text', 'blob', 'null')),
        is_error        INTEGER NOT NULL DEFAULT 0,
        provenance      TEXT,
        message         ANY CHECK (typeof(message) IN ('text', 'blob', 'null')),
        message_digest  TEXT,
        checkpoint      ANY NOT NULL CHECK (typeof(checkpoint) IN ('text', 'blob')),
        checkpoint_full INTEGER NOT NULL,
        message_segment TEXT,
        side_effect     INTEGER NOT NULL DEFAULT 0 CHECK (side_effect IN (0, 1)),
        CHECK (row_key = run_key * 16777216 + step)
      ) STRICT;
      INSERT INTO steps_v10 (row_key, run_key, step, kind, call_index, request_hash, request, message_count, response,
          is_error, provenance, message, message_digest, checkpoint, checkpoint_full, message_segment, side_effect)
        SELECT row_key, run_key, step, kind, call_index, request_hash, request, message_count, response,
          is_error, provenance, message, message_digest, checkpoint, checkpoint_full, message_segment, side_effect
        FROM steps ORDER BY row_key;
      DROP TABLE steps;
      ALTER TABLE steps_v10 RENAME TO steps;
      CREATE INDEX steps_with_segments ON steps (run_key, step) WHERE message_segment IS NOT NULL;
    `,
  },
];
