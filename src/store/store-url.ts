import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ForkpointError } from '../errors/index.js';
import { postgresAddress } from './postgres/postgres-location.js';
import { DEFAULT_POSTGRES_SCHEMA } from './postgres/postgres-store.js';

/** A SQLite database: a file path, or `:memory:`. */
export interface SqliteTarget {
  readonly kind: 'sqlite';
  readonly path: string;
}

/** A PostgreSQL database, and the schema forkpoint's tables live in there. */
export interface PostgresTarget {
  readonly kind: 'postgres';
  /** The URL as given, without its `schema` parameter: what the driver connects with. */
  readonly connectionString: string;
  /** The `?schema=` of the URL; undefined: the store's default. */
  readonly schema: string | undefined;
  /** Where it is, for messages, as the PostgreSQL store names itself: without password or parameters, with a schema other than the default. */
  readonly location: string;
}

/** Where a store URL points (see {@link parseStoreUrl}). */
export type StoreTarget = SqliteTarget | PostgresTarget;

// A scheme followed by `//`: what a URL looks like, as opposed to a file name (a Windows drive `C:\` has no `//`).
const URL_LIKE = /^([A-Za-z][A-Za-z\d+.-]*):\/\//;
const POSTGRES_SCHEMES = new Set(['postgres', 'postgresql']);
// A lowercase PostgreSQL identifier of at most 63 bytes, as the PostgreSQL store takes it: no quoting needed anywhere.
const SCHEMA_NAME = /^[a-z_][a-z\d_]{0,62}$/;

/**
 * Reads a store URL: `postgres://` or `postgresql://` is a PostgreSQL
 * database (its `?schema=name` parameter picks the schema, and is not passed
 * to the driver), a `file://` URL is a SQLite file, and any other text is a
 * SQLite path taken as it is (`:memory:` included). A URL of another scheme
 * (`mysql://`, `sqlite://`) is refused, so that a mistyped URL never becomes
 * a file of that name. Messages about a URL never show its password.
 */
export function parseStoreUrl(text: string): StoreTarget {
  if (text === '')
    throw new ForkpointError('USAGE', 'the store is empty: give a SQLite file path or a postgres:// URL');
  const scheme = URL_LIKE.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'sqlite', path: text };
  if (scheme === 'file') return { kind: 'sqlite', path: filePath(text) };
  if (!POSTGRES_SCHEMES.has(scheme)) {
    throw new ForkpointError(
      'USAGE',
      `unsupported store URL ${redactStoreUrl(text)}: a store is a postgres:// (or postgresql://) URL, or a SQLite file path`,
    );
  }
  return postgresTarget(text);
}

/**
 * The URL with any password in it replaced by `***` (in its user part, and
 * a `password=` parameter); a path comes back as it is.
 */
export function redactStoreUrl(text: string): string {
  if (!URL_LIKE.test(text)) return text;
  return (
    text
      // user:password@ in the authority: the password runs to the last @ before the path.
      .replace(/^([A-Za-z][A-Za-z\d+.-]*:\/\/[^:/?#@]*):[^/?#]*@/, '$1:***@')
      .replace(/([?&]password=)[^&#]*/gi, '$1***')
  );
}

/** How messages name a target: a SQLite path as given, a PostgreSQL store as it names itself (no password). */
export function storeLabel(target: StoreTarget): string {
  return target.kind === 'sqlite' ? target.path : target.location;
}

/**
 * Whether two targets are one store, however they are spelled: SQLite files
 * by their real paths, PostgreSQL schemas by host, port, database and schema
 * (not by user or password). `:memory:` is a store of its own each time it is
 * opened, never the same as another.
 */
export function isSameStore(a: StoreTarget, b: StoreTarget): boolean {
  const first = identityOf(a);
  return first !== undefined && first === identityOf(b);
}

function identityOf(target: StoreTarget): string | undefined {
  if (target.kind === 'sqlite') {
    if (target.path === ':memory:') return undefined;
    const path = resolve(target.path);
    return `sqlite:${existsSync(path) ? realpathSync(path) : path}`;
  }
  const url = new URL(target.connectionString);
  const host = url.searchParams.get('host') ?? (decodeURIComponent(url.hostname).toLowerCase() || 'localhost');
  const port = url.port === '' ? (url.searchParams.get('port') ?? '5432') : url.port;
  const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
  return `postgres://${host}:${port}/${database}#${target.schema ?? DEFAULT_POSTGRES_SCHEMA}`;
}

function filePath(text: string): string {
  try {
    return fileURLToPath(text);
  } catch {
    throw new ForkpointError(
      'USAGE',
      `${text} is not a file URL of this machine: give file:///absolute/path, or the path`,
    );
  }
}

function postgresTarget(text: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ForkpointError(
      'USAGE',
      `${redactStoreUrl(text)} is not a valid URL: postgres://user:password@host:port/database`,
    );
  }
  const schemas = url.searchParams.getAll('schema');
  const schema = schemas[0];
  if (schemas.length > 1 || (schema !== undefined && !SCHEMA_NAME.test(schema))) {
    throw new ForkpointError(
      'USAGE',
      `${redactStoreUrl(text)}: ?schema= takes one schema name (lowercase letters, digits and _, not starting with a digit, at most 63)`,
    );
  }
  // The URL as given but for its schema parameter: a URL object's own serialisation would re-encode the rest.
  const connectionString = schema === undefined ? text : withoutSchema(text);
  const { location } = postgresAddress(
    { connectionString },
    schema ?? DEFAULT_POSTGRES_SCHEMA,
    DEFAULT_POSTGRES_SCHEMA,
  );
  return { kind: 'postgres', connectionString, schema, location };
}

// Drops every `schema=` parameter from the query, keeping the others and their order as written.
function withoutSchema(text: string): string {
  const [head, fragment] = splitOnce(text, '#');
  const [base, query] = splitOnce(head, '?');
  if (query === undefined) return text;
  const kept = query.split('&').filter((pair) => !/^schema(=|$)/.test(pair));
  return `${base}${kept.length === 0 ? '' : `?${kept.join('&')}`}${fragment === undefined ? '' : `#${fragment}`}`;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
