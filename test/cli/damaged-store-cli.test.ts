import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { cli, tempFolder } from '../support/cli-harness.js';

// A database with the incident and a fork of it, closed and checkpointed: the source every case copies.
const folder = tempFolder('forkpoint-damaged-');
const source = join(folder.path, 'source.db');
let copies = 0;
beforeAll(async () => {
  await cli([
    'record',
    'scenarios/claims-triage',
    '--claim',
    'CLM-91077',
    '--at',
    '2026-03-04',
    '--run-id',
    '9b40c1d5',
    '--tier',
    'synthetic',
    '--db',
    source,
  ]);
  await cli(['fork', '9b40c1d5', '--at-step', '4', '--tool-error', 'timed out', '--db', source]);
});
afterAll(() => {
  folder.cleanup();
});

function copyOf(damage?: (db: Database.Database) => void): string {
  const path = join(folder.path, `copy-${copies++}.db`);
  copyFileSync(source, path);
  if (damage !== undefined) {
    const db = new Database(path);
    db.pragma('foreign_keys = OFF');
    damage(db);
    db.close();
  }
  return path;
}

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Runs a command on `path` and checks the contract: exit 2, one line with the code, and the file as it was. */
async function refusedReadOnly(path: string, args: readonly string[], code: string): Promise<string> {
  const before = digest(path);
  const result = await cli([...args, '--db', path]);
  expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^forkpoint: ${code}: [^\\n]+\\n$`));
  expect(result.exit, args.join(' ')).toBe(2);
  expect(digest(path), `${args.join(' ')} left the file as it was`).toBe(before);
  expect(existsSync(`${path}-wal`) && readFileSync(`${path}-wal`).length > 0).toBe(false);
  return result.stderr;
}

const READS = [
  ['runs'],
  ['show', '9b40c1d5'],
  ['show', '9b40c1d5', '--step', '4'],
  ['tree', '9b40c1d5'],
  ['export', '9b40c1d5'],
  ['compare', '9b40c1d5', '9b40c1d5'],
];

describe('a damaged database is STORE_CORRUPT, in one line, exit 2, and no read changes it', () => {
  it.each([
    [
      'a run input that is not JSON',
      (db: Database.Database) => db.exec("UPDATE runs SET input = 'not json' WHERE run_id = '9b40c1d5'"),
      /run 9b40c1d5's summary/,
    ],
    [
      'a mode that no forkpoint writes',
      (db: Database.Database) => db.exec("UPDATE runs SET mode = 'sideways'"),
      /mode "sideways"/,
    ],
    [
      'findings that are not a list',
      (db: Database.Database) => db.exec('UPDATE runs SET findings = \'{"a":1}\''),
      /findings that are not a list/,
    ],
    [
      'token totals that are not a list of them',
      (db: Database.Database) => db.exec('UPDATE runs SET usage = \'[{"model":"m","provenance":"live","input":-1}]\''),
      /usage that is not a list of token totals/,
    ],
    [
      'no record of its migrations',
      (db: Database.Database) => db.exec('DELETE FROM schema_migrations'),
      /no record of its migrations/,
    ],
    ['a lost blobs table', (db: Database.Database) => db.exec('DROP TABLE blobs'), /lost its blobs table/],
  ])('%s', async (_what, damage, message) => {
    const path = copyOf(damage);
    for (const args of READS) {
      // compare and export read the run too; every one of them must be refused the same way.
      expect(await refusedReadOnly(path, args, 'STORE_CORRUPT')).toMatch(message);
    }
  });

  it('a payload blob cut short: every read of its payload is refused, the summary still lists', async () => {
    const path = copyOf((db) => db.exec('UPDATE blobs SET body = substr(body, 1, length(body) / 2)'));
    for (const args of [
      ['show', '9b40c1d5'],
      ['show', '9b40c1d5', '--step', '4'],
      ['export', '9b40c1d5'],
    ]) {
      expect(await refusedReadOnly(path, args, 'STORE_CORRUPT')).toMatch(/not the JSON forkpoint wrote/);
    }
    expect((await cli(['runs', '--db', path])).exit).toBe(0);
  });

  it('a file cut short anywhere: never a bug of forkpoint, always one line', async () => {
    const size = readFileSync(source).length;
    // A dozen cuts spread over the file, the last byte included; the fault script (npm run fault-campaign) tries many more.
    const cuts = [
      1,
      100,
      4096,
      8191,
      8193,
      size / 4,
      size / 2,
      (3 * size) / 4,
      size - 8192,
      size - 4096,
      size - 100,
      size - 1,
    ].map(Math.floor);
    for (const length of cuts) {
      const path = copyOf();
      truncateSync(path, length);
      for (const args of [['runs'], ['show', '9b40c1d5']]) {
        const result = await cli([...args, '--db', path]);
        expect(result.exit, `cut to ${length} bytes: ${args.join(' ')}: ${result.stderr}`).not.toBe(3);
        if (result.exit !== 0)
          expect(result.stderr).toMatch(
            /^forkpoint: (STORE_CORRUPT|STORE_UNREADABLE|RUN_NOT_FOUND|CASSETTE_INVALID): [^\n]+\n$/,
          );
      }
    }
  });
});

describe('a read never creates, migrates or changes a file', () => {
  it('refuses an ordinary SQLite file without switching it to WAL', async () => {
    const path = join(folder.path, 'other.db');
    const other = new Database(path);
    other.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
    other.close();
    for (const args of [
      ['runs'],
      ['show', '9b40c1d5'],
      ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04'],
    ]) {
      expect(await refusedReadOnly(path, args, 'STORE_CORRUPT')).toMatch(/not a forkpoint one \(tables: notes\)/);
    }
    const check = new Database(path, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('reads an empty file as a database with no runs, and leaves it empty', async () => {
    const path = join(folder.path, 'empty.db');
    writeFileSync(path, '');
    expect(await cli(['runs', '--json', '--db', path])).toMatchObject({
      exit: 0,
      stdout: expect.stringMatching(/"runs": \[\]/),
    });
    await refusedReadOnly(path, ['show', '9b40c1d5'], 'RUN_NOT_FOUND');
    expect(readFileSync(path).length).toBe(0);
  });

  it('refuses to read a database of an older schema rather than migrate it, and a writing command migrates it', async () => {
    const path = join(folder.path, 'older.db');
    const older = new Database(path);
    // As forkpoint migrates: references are checked by the migrations themselves, not enforced meanwhile.
    older.pragma('foreign_keys = OFF');
    older.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT',
    );
    for (const migration of MIGRATIONS.filter((m) => m.version < SCHEMA_VERSION)) {
      older.exec(migration.sql);
      older
        .prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)')
        .run(migration.version, migration.name, '2026-01-01T00:00:00.000Z');
    }
    older.close();
    expect(await refusedReadOnly(path, ['runs'], 'STORE_OUTDATED')).toMatch(
      /has schema version \d+; this forkpoint reads version \d+\. A command that writes/,
    );
    expect((await cli(['gc', '--db', path])).exit).toBe(0);
    expect((await cli(['runs', '--json', '--db', path])).exit).toBe(0);
  });

  it('refuses a database whose record of migrations does not match its tables, writing nothing', async () => {
    const path = copyOf((db) =>
      db.exec('DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)'),
    );
    expect(await refusedReadOnly(path, ['gc'], 'STORE_CORRUPT')).toMatch(
      /records schema version \d+ but its tables do not match it/,
    );
  });
});
