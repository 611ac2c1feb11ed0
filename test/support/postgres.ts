import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';

/** The test server's URL (`FORKPOINT_TEST_PG`), or undefined when none is given. */
export function postgresTestUrl(): string | undefined {
  const url = process.env.FORKPOINT_TEST_PG;
  return url === undefined || url === '' ? undefined : url;
}

const said = new Set<string>();

/**
 * `describe(name, body)` when a test server is given. Without one, CI fails
 * (a server it should have started is missing); anywhere else the tests are
 * skipped, and stderr says so once.
 */
export function describePostgres(name: string, body: () => void): void {
  if (postgresTestUrl() !== undefined) {
    describe(name, body);
  } else if (process.env.CI !== undefined && process.env.CI !== '') {
    describe(name, () => {
      it('has a PostgreSQL server', () => {
        throw new Error('FORKPOINT_TEST_PG is not set: CI must start PostgreSQL (scripts/postgres-server.sh start)');
      });
    });
  } else {
    if (!said.has(name)) {
      said.add(name);
      process.stderr.write(
        `skipped ${name}: set FORKPOINT_TEST_PG to run it (start a server with scripts/postgres-server.sh start)\n`,
      );
    }
    describe.skip(name, body);
  }
}

const made = new Set<string>();

/** A schema name no other test uses (nor another process's); {@link dropFreshSchemas} drops it. */
export function freshSchemaName(): string {
  const name = `fp_test_${process.pid}_${randomBytes(5).toString('hex')}`;
  made.add(name);
  return name;
}

/** The test server's URL for `schema`, as `--db` takes it. */
export function schemaUrl(schema: string): string {
  const url = postgresTestUrl() ?? '';
  return `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`;
}

/** A pool on the test server, for a test's own statements; the caller ends it. */
export function adminPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgresTestUrl(), max: 2 });
  pool.on('error', () => undefined);
  return pool;
}

/** Drops every schema {@link freshSchemaName} made in this process (and what is in them). */
export async function dropFreshSchemas(): Promise<void> {
  if (made.size === 0 || postgresTestUrl() === undefined) return;
  const pool = adminPool();
  try {
    for (const name of [...made]) {
      await pool.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      made.delete(name);
    }
  } finally {
    await pool.end();
  }
}

/** Drops the file's fresh schemas once its tests are done. Call at the top of a test file. */
export function dropFreshSchemasAfterAll(): void {
  afterAll(dropFreshSchemas, 60_000);
}
