import { ForkpointError } from '../../errors/index.js';
import { migrationLock } from './advisory-locks.js';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './migrations.js';
import type { PostgresConnection } from './postgres-connection.js';
import type { PostgresResult } from './postgres-pool.js';

/** Runs one statement's text on the connection of a script. */
export type ScriptRun = (text: string, values?: readonly unknown[]) => Promise<PostgresResult>;

/** Where a store's schema is, and what opening it may do. */
export interface SchemaPlace {
  /** A plain lowercase identifier (checked by the store): it goes into SQL unquoted. */
  readonly schema: string;
  /**
   * Also refuse a database whose `public` schema holds tables, when the
   * store's schema holds none yet: given no schema, the store was most likely
   * pointed at another application's database.
   */
  readonly checkDatabase: boolean;
  readonly location: string;
}

// The tables every schema version has; a schema without one of them has lost it.
const CORE_TABLES = ['runs', 'steps', 'blobs'];

const TABLES_OF = `SELECT c.relname::text AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname`;

/**
 * The schema version of the store's schema, 0 when it holds nothing yet; a
 * schema that is not forkpoint's, or is of a newer forkpoint, is refused
 * before anything about it changes (with SQLite's codes and words).
 */
export async function readSchemaVersion(run: ScriptRun, place: SchemaPlace): Promise<number> {
  const { schema, location } = place;
  const tables = (await run(TABLES_OF, [schema])).rows.map((row) => (row as { name: string }).name);
  if (tables.length === 0) {
    const foreign = place.checkDatabase ? await tableNames(run, 'public') : [];
    if (foreign.length > 0) {
      throw new ForkpointError(
        'STORE_CORRUPT',
        `${location} is a PostgreSQL database but not a forkpoint one (tables: ${foreign.slice(0, 5).join(', ')})`,
        { details: { path: location, remedy: { kind: 'choose-schema' } } },
      );
    }
    return 0;
  }
  if (!tables.includes('schema_migrations')) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${location} is a PostgreSQL schema but not a forkpoint one (tables: ${tables.slice(0, 5).join(', ')})`,
      { details: { path: location, remedy: { kind: 'choose-schema' } } },
    );
  }
  const [recorded] = (await run(`SELECT COALESCE(MAX(version), 0) AS version FROM ${schema}.schema_migrations`))
    .rows as Array<{ version: number }>;
  const version = recorded?.version ?? 0;
  if (version > POSTGRES_SCHEMA_VERSION) {
    throw new ForkpointError(
      'STORE_TOO_NEW',
      `${location} has schema version ${version}, newer than this forkpoint understands (${POSTGRES_SCHEMA_VERSION}); upgrade forkpoint`,
    );
  }
  const others = tables.filter((name) => name !== 'schema_migrations');
  if (version === 0 && others.length > 0) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${location} has forkpoint's tables (${others.slice(0, 5).join(', ')}) but no record of its migrations`,
      { details: { path: location, remedy: { kind: 'choose-schema', restore: true } } },
    );
  }
  const missing = version === 0 ? [] : CORE_TABLES.filter((name) => !tables.includes(name));
  if (missing.length > 0) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${location} has lost its ${missing.join(', ')} table${missing.length === 1 ? '' : 's'} (schema version ${version})`,
      { details: { path: location, remedy: { kind: 'choose-schema', restore: true } } },
    );
  }
  return version;
}

async function tableNames(run: ScriptRun, schema: string): Promise<string[]> {
  return (await run(TABLES_OF, [schema])).rows.map((row) => (row as { name: string }).name);
}

/**
 * Opens the store's schema: reads its version without a lock, and migrates
 * it when it needs one, in one transaction that holds the schema's advisory
 * lock and reads the version again under it, so that processes starting
 * together migrate once. A reader never migrates: an empty schema reads as
 * a store with no runs (`empty`), an older one is `STORE_OUTDATED`.
 */
export async function openSchema(
  connection: PostgresConnection,
  place: SchemaPlace,
  options: { readonly readOnly: boolean; readonly now: () => Date },
): Promise<'empty' | 'ready'> {
  return connection.script(async (run) => {
    const version = await readSchemaVersion(run, place);
    if (options.readOnly) {
      if (version === 0) return 'empty';
      if (version < POSTGRES_SCHEMA_VERSION) {
        throw new ForkpointError(
          'STORE_OUTDATED',
          `${place.location} has schema version ${version}; this forkpoint reads version ${POSTGRES_SCHEMA_VERSION}. A command that writes (record, gc, ...) migrates it; this one only reads, and changes nothing`,
        );
      }
      return 'ready';
    }
    if (version < POSTGRES_SCHEMA_VERSION) await migrate(run, place, options.now);
    return 'ready';
  });
}

async function migrate(run: ScriptRun, place: SchemaPlace, now: () => Date): Promise<void> {
  const { schema, location } = place;
  await run('BEGIN');
  try {
    await run('SELECT pg_advisory_xact_lock($1::bigint)', [migrationLock(schema)]);
    // Read again under the lock: another process may have migrated (or changed) it meanwhile.
    const newest = await readSchemaVersion(run, place);
    if (newest < POSTGRES_SCHEMA_VERSION) {
      await run(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await run(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at text NOT NULL
      )`);
      for (const migration of POSTGRES_MIGRATIONS) {
        if (migration.version <= newest) continue;
        try {
          // Unqualified names land in the store's schema: every connection's search_path is that schema alone.
          await run(migration.sql);
        } catch (error) {
          // A migration that does not fit the schema (a table it makes is there already): the record of
          // migrations and the schema disagree, so the schema was changed outside forkpoint. Nothing is kept.
          if (!(error instanceof ForkpointError) || error.code !== 'INTERNAL') throw error;
          throw new ForkpointError(
            'STORE_CORRUPT',
            `${location} records schema version ${newest} but its tables do not match it (migration ${migration.version} failed: ${error.problem}); restore it from a copy`,
            { cause: error },
          );
        }
        await run(`INSERT INTO ${schema}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [
          migration.version,
          migration.name,
          now().toISOString(),
        ]);
      }
    }
    await run('COMMIT');
  } catch (error) {
    await run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
