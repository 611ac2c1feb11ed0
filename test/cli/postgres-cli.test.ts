import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import { sqliteStore } from '../../src/store/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

// The local server of the common rules (scripts/postgres-server.sh start); without it these are skipped.
const SERVER = process.env.FORKPOINT_TEST_PG;
const withSchema = (schema: string): string =>
  `${SERVER ?? ''}${(SERVER ?? '').includes('?') ? '&' : '?'}schema=${schema}`;
const freshSchema = (): string => `fp_cli_${process.pid}_${randomBytes(4).toString('hex')}`;

async function schemaExists(schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    const result = await client.query<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1) AS found',
      [schema],
    );
    return result.rows[0]?.found === true;
  } finally {
    await client.end();
  }
}

describe.runIf(SERVER !== undefined && SERVER !== '')('the CLI on a PostgreSQL server', () => {
  it('reads a schema without forkpoint tables as an empty store, and creates nothing', async () => {
    const schema = freshSchema();
    const db = withSchema(schema);
    const runs = await cli(['runs', '--json', '--db', db]);
    expect(runs.exit).toBe(0);
    expect(JSON.parse(runs.stdout)).toEqual({ runs: [], next: null });
    for (const command of [
      ['show', '9b40c1d5'],
      ['tree', '9b40c1d5'],
      ['fork', '9b40c1d5', '--at-step', '4', '--tool-error', 'down'],
      ['resume', '9b40c1d5'],
    ]) {
      const result = await cli([...command, '--db', db]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^forkpoint: RUN_NOT_FOUND: no run 9b40c1d5: there is no forkpoint store at postgres://[^ ]*schema=${schema} yet\\n$`,
        ),
      );
    }
    expect((await cli(['gc', '--db', db])).stderr).toMatch(
      /^forkpoint: RUN_NOT_FOUND: there is no forkpoint store at .*; nothing to collect/,
    );
    expect((await cli(['retention', '--json', '--db', db])).stdout).toMatch(/"storeId": null/);
    expect((await cli(['copy', '--from', db, '--to', ':memory:'])).stderr).toMatch(
      /^forkpoint: RUN_NOT_FOUND: there is no forkpoint store at .*; nothing to copy/,
    );
    expect(await schemaExists(schema)).toBe(false);
  });

  it('says a login the server refuses in one line, exit 2, without the password', async () => {
    const url = new URL(SERVER ?? '');
    url.password = 'not-the-password-7f3a';
    const folder = tempFolder('forkpoint-postgres-cli-');
    const source = join(folder.path, 'source.db');
    await sqliteStore({ path: source }).close();
    onTestFinished(folder.cleanup);
    for (const args of [
      ['runs', '--db', url.href],
      ['show', '9b40c1d5', '--json', '--db', url.href],
      ['copy', '--from', source, '--to', url.href],
    ]) {
      const result = await cli(args);
      expect(result.exit).toBe(2);
      expect(`${result.stdout}${result.stderr}`).not.toContain('not-the-password-7f3a');
      expect(result.stderr).toMatch(
        /^forkpoint: STORE_UNREACHABLE: cannot reach the PostgreSQL store at postgres:\/\/[^:]+:\*\*\*@/,
      );
    }
  });
});
