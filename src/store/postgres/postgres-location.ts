import type { PostgresPoolOptions } from './postgres-pool.js';

/** Where a PostgreSQL store lives, said without its password, and how to keep the password out of any text. */
export interface PostgresAddress {
  /** The URL without its password (and without query parameters), with `?schema=` unless the schema is the default. */
  readonly location: string;
  /** `text` with the connection string and any password in it replaced. */
  redact(text: string): string;
}

// A password shorter than this, or one the location itself holds (a role named like its password), is
// removed only where it appears as one: after `user:` in a URL or as `password=`. Removed everywhere, it
// would eat the words of the message around it.
const REDACT_ANYWHERE_FROM = 6;

/**
 * The address of a store on `connectionString`, or on a pool made elsewhere
 * (named by the options it keeps), in schema `schema`.
 */
export function postgresAddress(
  source: { readonly connectionString?: string | undefined; readonly pool?: PostgresPoolOptions | undefined },
  schema: string,
  defaultSchema: string,
): PostgresAddress {
  const connectionString = source.connectionString ?? source.pool?.connectionString;
  const parsed = connectionString === undefined ? undefined : parseUrl(connectionString);
  const base =
    connectionString === undefined
      ? fromOptions(source.pool)
      : parsed === undefined
        ? // A keyword string (`host=... password=...`) or a socket path: said without any `password=` in it.
          `postgres (${withoutKeywordPasswords(connectionString).trim()})`
        : urlWithoutPassword(parsed);
  const location = schema === defaultSchema ? base : `${base}?schema=${schema}`;
  const password = parsed === undefined ? undefined : decodeURIComponentSafe(parsed.password);
  return {
    location,
    redact(text) {
      let redacted = text;
      if (connectionString !== undefined && connectionString !== '')
        redacted = redacted.split(connectionString).join(location);
      redacted = withoutKeywordPasswords(redacted).replace(/(\/\/[^:/@\s]*):[^@\s]*@/g, '$1:***@');
      if (
        password !== undefined &&
        password.length >= REDACT_ANYWHERE_FROM &&
        !location.includes(password) &&
        redacted.includes(password)
      )
        redacted = redacted.split(password).join('***');
      return redacted;
    },
  };
}

function parseUrl(text: string): URL | undefined {
  if (!/^postgres(ql)?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function urlWithoutPassword(url: URL): string {
  const user = url.username === '' ? '' : `${url.username}@`;
  return `${url.protocol}//${user}${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

function fromOptions(options: PostgresPoolOptions | undefined): string {
  if (options === undefined) return 'postgres (a pool)';
  const user = options.user === undefined ? '' : `${options.user}@`;
  const host = options.host ?? 'localhost';
  const port = options.port === undefined ? '' : `:${String(options.port)}`;
  const database = options.database === undefined ? '' : `/${options.database}`;
  return `postgres://${user}${host}${port}${database}`;
}

const withoutKeywordPasswords = (text: string): string =>
  text.replace(/(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)/gi, '$1***');

function decodeURIComponentSafe(text: string): string | undefined {
  if (text === '') return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
