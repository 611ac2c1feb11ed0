import { DEFAULT_POSTGRES_SCHEMA } from '../postgres/postgres-store.js';
import { postgresAddress } from '../postgres/postgres-location.js';
import { translatePostgresError } from '../postgres/postgres-errors.js';
import type { PostgresTarget } from '../store-url.js';

/** How long the probe waits for the server, connecting and then querying (the store's own connect timeout). */
export const PROBE_TIMEOUT_MS = 5000;

// Tables or partitioned tables in the schema; a schema that does not exist has none.
const HOLDS_TABLES = `SELECT EXISTS (
  SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')) AS holds`;

/**
 * Whether the schema a PostgreSQL URL names (default `forkpoint`) holds
 * tables, so that a command that needs an existing store never creates one: a
 * schema without tables is no store yet, one with tables is forkpoint's or is
 * refused by the store as not forkpoint's. Reads only the catalog, on a
 * connection of its own; its failures are the store's (`STORE_UNREACHABLE`),
 * said without the password.
 */
export async function holdsTables(target: PostgresTarget, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const schema = target.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const context = {
    address: postgresAddress({ connectionString: target.connectionString }, schema, DEFAULT_POSTGRES_SCHEMA),
    connectTimeoutMs: timeoutMs,
    statementTimeoutMs: timeoutMs,
  };
  const { Client } = await import('pg');
  const client = new Client({
    connectionString: target.connectionString,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
  });
  // A connection that fails later (the server going away) is reported by the query that meets it.
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
    } catch (error) {
      throw translatePostgresError(error, context, 'connect');
    }
    try {
      const result = await client.query<{ holds: boolean }>(HOLDS_TABLES, [schema]);
      return result.rows[0]?.holds === true;
    } catch (error) {
      throw translatePostgresError(error, context, 'statement');
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
