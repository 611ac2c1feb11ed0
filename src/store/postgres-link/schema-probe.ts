import { ForkpointError } from '../../errors/index.js';
import type { PostgresTarget } from '../store-url.js';
import { DEFAULT_POSTGRES_SCHEMA } from './postgres-store-stand-in.js';

/** How long the probe waits for the server to answer, connecting and then querying. */
export const PROBE_TIMEOUT_MS = 5000;

// Tables or partitioned tables in the schema; a schema that does not exist has none.
const HOLDS_TABLES = `SELECT EXISTS (
  SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')) AS holds`;

/**
 * Whether the schema a PostgreSQL URL names holds tables, so that a command
 * that needs an existing store never creates one: a schema without tables
 * is no store yet, one with tables is forkpoint's or is refused by the store
 * as not forkpoint's. Reads only the catalog; loaded, with `pg`, only when a URL asks for it.
 */
export async function holdsTables(target: PostgresTarget, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
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
    await client.connect();
    const result = await client.query<{ holds: boolean }>(HOLDS_TABLES, [target.schema ?? DEFAULT_POSTGRES_SCHEMA]);
    return result.rows[0]?.holds === true;
  } catch (error) {
    throw unreachable(error, target.location);
  } finally {
    await client.end().catch(() => undefined);
  }
}

// What the driver reports (a socket error code, a server's SQLSTATE, a timeout), as one line that names the
// store by its redacted URL: the driver's own message never holds the password, the URL would.
function unreachable(error: unknown, location: string): ForkpointError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const reason = error instanceof Error ? error.message : String(error);
  const why =
    code === '28P01' || code === '28000'
      ? `the server refused the login (${reason})`
      : code === '3D000'
        ? `the database does not exist (${reason})`
        : reason;
  return new ForkpointError('STORE_UNREACHABLE', `cannot reach the PostgreSQL store at ${location}: ${why}`, {
    cause: error,
    details: { path: location },
  });
}
