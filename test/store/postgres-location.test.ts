import { describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { postgresAddress } from '../../src/store/postgres/postgres-location.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';

describe('the address of a PostgreSQL store', () => {
  it('is its URL without the password, and names a schema that is not the default', () => {
    const url = 'postgres://forkpoint:s3cret-pass@127.0.0.1:54329/forkpoint';
    expect(postgresAddress({ connectionString: url }, 'forkpoint', 'forkpoint').location).toBe(
      'postgres://forkpoint@127.0.0.1:54329/forkpoint',
    );
    expect(
      postgresAddress({ connectionString: `${url}?sslmode=disable`, pool: undefined }, 'team', 'forkpoint').location,
    ).toBe('postgres://forkpoint@127.0.0.1:54329/forkpoint?schema=team');
    expect(
      postgresAddress(
        { pool: { host: 'db.internal', port: 5432, user: 'ci', database: 'runs' } },
        'forkpoint',
        'forkpoint',
      ).location,
    ).toBe('postgres://ci@db.internal:5432/runs');
  });

  it('takes the connection string and every form of its password out of a text', () => {
    const url = 'postgresql://ana:p%40ss-w0rd-9@db.internal/forkpoint?password=other-secret';
    const address = postgresAddress({ connectionString: url }, 'forkpoint', 'forkpoint');
    const { location } = address;
    expect(location).toBe('postgresql://ana@db.internal/forkpoint');
    const said = address.redact(
      `cannot parse ${url}; tried postgres://ana:p%40ss-w0rd-9@db.internal with p@ss-w0rd-9, password=other-secret`,
    );
    expect(said).not.toMatch(/p%40ss|p@ss-w0rd|other-secret/);
    expect(said).toContain(location);
  });

  it('says a keyword connection string without its password', () => {
    const address = postgresAddress(
      { connectionString: "host=/var/run/postgresql dbname=runs password='a b c'" },
      'forkpoint',
      'forkpoint',
    );
    expect(address.location).not.toContain('a b c');
    expect(address.redact("password='a b c' and password=plain")).toBe('password=*** and password=***');
  });
});

describe('postgresStore options', () => {
  const codeOf = (work: () => unknown): string | undefined => {
    try {
      work();
    } catch (error) {
      return isForkpointError(error) ? error.code : 'not a forkpoint error';
    }
    return undefined;
  };

  it('takes exactly one of a connection string and a pool, and a plain schema name', () => {
    expect(codeOf(() => postgresStore({}))).toBe('USAGE');
    expect(codeOf(() => postgresStore({ connectionString: 'postgres://a@b/c', schema: 'Robert"; DROP' }))).toBe(
      'USAGE',
    );
    expect(codeOf(() => postgresStore({ connectionString: 'postgres://a@b/c', schema: '9lives' }))).toBe('USAGE');
    // Made without connecting: the first call connects.
    expect(codeOf(() => postgresStore({ connectionString: 'postgres://a@127.0.0.1:1/c', schema: 'team_1' }))).toBe(
      undefined,
    );
  });
});
