import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import type { ErrorCode } from '../../src/errors/index.js';
import { describeStoreConformance } from '../../src/testing/index.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { MMAP_BYTES, openDatabase } from '../../src/store/sqlite/open-database.js';

const folder = mkdtempSync(join(tmpdir(), 'forkpoint-store-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});
let files = 0;
const tempPath = (): string => join(folder, `store-${files++}.db`);

describeStoreConformance('sqlite :memory:', { open: () => sqliteStore({ path: ':memory:' }) });
describeStoreConformance('sqlite file', {
  open: () => sqliteStore({ path: tempPath() }),
  reopen: async (store) => {
    await store.close();
    return sqliteStore({ path: store.location });
  },
  another: (store) => sqliteStore({ path: store.location }),
});

function codeOf(work: () => unknown): ErrorCode | undefined {
  try {
    work();
  } catch (error) {
    return isForkpointError(error) ? error.code : undefined;
  }
  return undefined;
}

describe('sqliteStore', () => {
  it('creates the file in WAL mode with 8 KiB pages, incremental auto-vacuum (set before the first table) and no free page', async () => {
    const path = tempPath();
    await sqliteStore({ path, synchronous: 'FULL' }).close();
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(db.pragma('page_size', { simple: true })).toBe(8192);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
  });

  it('reads the database file through a memory map, so that overflow pages past the page cache cost no system call', () => {
    const db = openDatabase({ path: tempPath(), synchronous: 'NORMAL', busyTimeoutMs: 100, now: () => new Date() });
    expect(db.pragma('mmap_size', { simple: true })).toBe(MMAP_BYTES);
    db.close();
  });

  it('records each migration once in schema_migrations', async () => {
    const path = tempPath();
    await sqliteStore({ path }).close();
    await sqliteStore({ path }).close();
    const db = new Database(path);
    expect(db.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
    db.close();
  });

  it('refuses a file that is not a database with STORE_CORRUPT', () => {
    const path = tempPath();
    writeFileSync(path, 'this is not sqlite, just text that is long enough to have a header '.repeat(20));
    expect(codeOf(() => sqliteStore({ path }))).toBe('STORE_CORRUPT');
  });

  it('refuses a SQLite database that is not a forkpoint one', () => {
    const path = tempPath();
    const db = new Database(path);
    db.exec('CREATE TABLE invoices (id INTEGER)');
    db.close();
    expect(codeOf(() => sqliteStore({ path }))).toBe('STORE_CORRUPT');
  });

  it('refuses a database from a newer forkpoint with STORE_TOO_NEW', async () => {
    const path = tempPath();
    await sqliteStore({ path }).close();
    const db = new Database(path);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      SCHEMA_VERSION + 1,
      'future',
      'x',
    );
    db.close();
    expect(codeOf(() => sqliteStore({ path }))).toBe('STORE_TOO_NEW');
  });

  it('reports a path it cannot open (a directory) as STORE_UNREADABLE', () => {
    expect(codeOf(() => sqliteStore({ path: folder }))).toBe('STORE_UNREADABLE');
    expect(codeOf(() => sqliteStore({ path: join(folder, 'missing', 'dir', 'x.db') }))).toBe('STORE_UNREADABLE');
  });
});
