import type { Migration } from './migration.js';

/** Migration 10: payloads sealed at rest. */
export const SEALED_PAYLOADS: readonly Migration[] = [
  {
    version: 10,
    name: 'the key each blob is sealed under',
    // Full-tier payloads are now sealed at rest under their run's tier key (export_keys), so that deleting
    // the key when its day is over shreds them whatever the file still holds. A blob shared by runs is
    // sealed under the latest-expiring key of the runs that stored it, and sealed again when a run with a
    // later key stores it: key_id says which (NULL: plain text), so that the decision reads no body. It
    // goes before the body, as owner_key does (migration 6), so that reading it never walks the body's
    // overflow pages; the table is rebuilt for that. A sealed body is bytes, not base64 text, which would
    // add a third to the largest part of the file: the body column takes both (a plain body is text).
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
    `,
  },
];
