import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { isSameStore, parseStoreUrl, redactStoreUrl } from '../../src/store/index.js';

const folder = mkdtempSync(join(tmpdir(), 'forkpoint-store-url-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

const refusal = (text: string): string => {
  try {
    parseStoreUrl(text);
  } catch (error) {
    if (isForkpointError(error, 'USAGE')) return error.message;
    throw error;
  }
  throw new Error(`${text} was accepted`);
};

describe('parseStoreUrl', () => {
  it('takes postgres:// and postgresql:// URLs as PostgreSQL, reading ?schema= off the URL', () => {
    expect(parseStoreUrl('postgres://team:s3cret@db.internal:6543/forkpoint?schema=claims&sslmode=require')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://team:s3cret@db.internal:6543/forkpoint?sslmode=require',
      schema: 'claims',
      // As the PostgreSQL store names itself: no password, no parameters but a schema of its own.
      location: 'postgres://team@db.internal:6543/forkpoint?schema=claims',
    });
    expect(parseStoreUrl('POSTGRESQL://db/forkpoint')).toEqual({
      kind: 'postgres',
      connectionString: 'POSTGRESQL://db/forkpoint',
      schema: undefined,
      location: 'postgresql://db/forkpoint',
    });
    expect(parseStoreUrl('postgres://db/forkpoint?schema=claims')).toMatchObject({
      connectionString: 'postgres://db/forkpoint',
    });
  });

  it('takes any other text as a SQLite path, and a file:// URL as the file it names', () => {
    expect(parseStoreUrl('checkpoints/forkpoint.db')).toEqual({ kind: 'sqlite', path: 'checkpoints/forkpoint.db' });
    expect(parseStoreUrl(':memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
    // A colon without `//` is part of a file name (or a Windows drive), not a scheme.
    expect(parseStoreUrl('runs:2026.db')).toEqual({ kind: 'sqlite', path: 'runs:2026.db' });
    const file = join(folder, 'a b.db');
    expect(parseStoreUrl(pathToFileURL(file).href)).toEqual({ kind: 'sqlite', path: file });
  });

  it('refuses another scheme, a bad schema name and an empty store, without the password', () => {
    expect(refusal('mysql://me:hunter2@db/runs')).toBe(
      'unsupported store URL mysql://me:***@db/runs: a store is a postgres:// (or postgresql://) URL, or a SQLite file path',
    );
    expect(refusal('sqlite:///tmp/x.db')).toMatch(/^unsupported store URL sqlite:\/\/\/tmp\/x\.db/);
    expect(refusal('postgres://me:hunter2@db/runs?schema=Claims')).toMatch(
      /^postgres:\/\/me:\*\*\*@db\/runs\?schema=Claims: \?schema= takes one schema name/,
    );
    expect(refusal('postgres://db/runs?schema=a&schema=b')).toMatch(/takes one schema name/);
    expect(refusal('postgres://me:hunter2@[db/runs')).toBe(
      'postgres://me:***@[db/runs is not a valid URL: postgres://user:password@host:port/database',
    );
    expect(refusal('')).toMatch(/^the store is empty/);
  });
});

describe('redactStoreUrl', () => {
  it('replaces the password in the user part and in a password parameter, and leaves the rest', () => {
    expect(redactStoreUrl('postgres://team:p@ss:w0rd@db:5432/forkpoint')).toBe('postgres://team:***@db:5432/forkpoint');
    expect(redactStoreUrl('postgres://team@db/forkpoint?password=hunter2&sslmode=require')).toBe(
      'postgres://team@db/forkpoint?password=***&sslmode=require',
    );
    expect(redactStoreUrl('postgres://db/forkpoint')).toBe('postgres://db/forkpoint');
    expect(redactStoreUrl('/home/me/user:secret@host.db')).toBe('/home/me/user:secret@host.db');
  });
});

describe('isSameStore', () => {
  it('knows a file however its path is spelled, and a schema whoever connects to it', () => {
    const file = join(folder, 'runs.db');
    writeFileSync(file, '');
    symlinkSync(file, join(folder, 'link.db'));
    const same = (a: string, b: string): boolean => isSameStore(parseStoreUrl(a), parseStoreUrl(b));
    expect(same(file, join(folder, '.', 'runs.db'))).toBe(true);
    expect(same(file, join(folder, 'link.db'))).toBe(true);
    expect(same(file, join(folder, 'other.db'))).toBe(false);
    expect(same(':memory:', ':memory:')).toBe(false);
    expect(same('postgres://a:x@DB:5432/forkpoint', 'postgresql://b@db/forkpoint')).toBe(true);
    expect(same('postgres://db/forkpoint?schema=one', 'postgres://db/forkpoint?schema=two')).toBe(false);
    expect(same('postgres://db/forkpoint?schema=forkpoint', 'postgres://db/forkpoint')).toBe(true);
    expect(same('postgres://db/forkpoint', 'postgres://db:6543/forkpoint')).toBe(false);
  });
});
