import { ForkpointError, isForkpointError } from '../../errors/index.js';
import type { PostgresAddress } from './postgres-location.js';

/** When a failure happened: while getting a connection, or on one the store already had. */
export type FailurePhase = 'connect' | 'statement';

/** How the store talks about its server in errors: where it is (without a password) and its timeouts. */
export interface ErrorContext {
  readonly address: PostgresAddress;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
}

// Node's network error codes that mean the server could not be reached at all.
const UNREACHABLE_NETWORK: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused: is the server running, on that host and port?',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved (DNS did not answer)',
  EHOSTUNREACH: 'its host cannot be reached',
  ENETUNREACH: 'its network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
};
// A connection that was there and went away.
const LOST_NETWORK = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT']);
const LOST_MESSAGE =
  /Connection terminated|not queryable|Query read timeout|Connection ended|socket hang up|read ECONNRESET/;
const TIMED_OUT_CONNECTING = /timeout expired|timeout exceeded when trying to connect|due to connection timeout/;

/**
 * Turns a failure of node-postgres or of the server into a one-line forkpoint
 * error a user can act on, with every connection string and password taken
 * out of it. Forkpoint's own errors pass through unchanged; a server error no
 * rule names is `INTERNAL`, since the store sent a statement the server would
 * not take.
 */
export function translatePostgresError(error: unknown, context: ErrorContext, phase: FailurePhase): unknown {
  if (isForkpointError(error) || !(error instanceof Error)) return error;
  const { address } = context;
  const where = address.location;
  const said = oneLine(address.redact(error.message === '' ? (networkCode(error) ?? 'no message') : error.message));
  const make = (code: ConstructorParameters<typeof ForkpointError>[0], problem: string): ForkpointError =>
    // The cause is kept for debugging, never printed: its message is said (redacted) in the problem.
    new ForkpointError(code, problem, { cause: error, details: { path: where } });
  const sqlState = sqlStateOf(error);
  if (sqlState !== undefined) return fromSqlState(sqlState, said, where, context, make);
  const network = networkCode(error);
  if (phase === 'connect') {
    if (network !== undefined && UNREACHABLE_NETWORK[network] !== undefined)
      return make(
        'STORE_UNREACHABLE',
        `cannot reach the PostgreSQL server of ${where}: ${UNREACHABLE_NETWORK[network]} (${said})`,
      );
    if (TIMED_OUT_CONNECTING.test(error.message))
      return make(
        'STORE_UNREACHABLE',
        `cannot reach the PostgreSQL server of ${where}: it did not answer within the connect timeout (${context.connectTimeoutMs} ms)`,
      );
    if (LOST_MESSAGE.test(error.message))
      return make(
        'STORE_UNREACHABLE',
        `cannot reach the PostgreSQL server of ${where}: it closed the connection before it was made (${said})`,
      );
    // Anything else before a connection existed (a malformed URL, TLS refused) also means "not reached".
    return make('STORE_UNREACHABLE', `cannot connect to the PostgreSQL server of ${where} (${said})`);
  }
  if ((network !== undefined && LOST_NETWORK.has(network)) || LOST_MESSAGE.test(error.message))
    return lost(said, where, make);
  return error;
}

/** Whether `error` (translated or not) means the connection it happened on is gone, and must not be reused. */
export function isConnectionLost(error: unknown): boolean {
  if (isForkpointError(error)) return error.code === 'STORE_UNAVAILABLE' || error.code === 'STORE_UNREACHABLE';
  if (!(error instanceof Error)) return false;
  const sqlState = sqlStateOf(error);
  if (sqlState !== undefined) return sqlState.startsWith('08') || sqlState.startsWith('57P');
  const network = networkCode(error);
  return (network !== undefined && LOST_NETWORK.has(network)) || LOST_MESSAGE.test(error.message);
}

type Make = (code: ConstructorParameters<typeof ForkpointError>[0], problem: string) => ForkpointError;

function fromSqlState(state: string, said: string, where: string, context: ErrorContext, make: Make): ForkpointError {
  switch (state) {
    case '28P01':
      return make(
        'STORE_UNREACHABLE',
        `the PostgreSQL server of ${where} refused the password (${said}): a wrong password, or no such role; check the credentials of the URL`,
      );
    case '28000':
      return make(
        'STORE_UNREACHABLE',
        `the PostgreSQL server of ${where} does not let this role in (${said}); check the role of the URL and the server's pg_hba.conf`,
      );
    case '3D000':
      return make(
        'STORE_UNREACHABLE',
        `the PostgreSQL server of ${where} has no such database (${said}); create it (\`createdb\`), or name another in the URL`,
      );
    case '53300':
    case '57P03':
      return make(
        'STORE_UNREACHABLE',
        `the PostgreSQL server of ${where} takes no connection now (${said}); try again`,
      );
    case '57014':
      return make(
        'STORE_BUSY',
        `a statement on ${where} ran past the statement timeout (${context.statementTimeoutMs} ms; another transaction may hold a lock it needs, or the server is overloaded); nothing of it was kept: run the command again`,
      );
    case '55P03':
    case '40P01':
    case '40001':
      return make(
        'STORE_BUSY',
        `${where} could not take a lock this write needs (${said}); nothing of it was kept: run the command again`,
      );
    case '53100':
      return make(
        'STORE_FULL',
        `the disk of the PostgreSQL server of ${where} is full (${said}); nothing of the write that failed was kept. Free space there (\`forkpoint gc\` removes what has expired), then run the command again, or \`forkpoint resume\` a run it stopped`,
      );
    case '42P01':
    case '42703':
    case '42883':
      return make(
        'STORE_CORRUPT',
        `${where} does not hold the schema its version says (${said}); it was changed outside forkpoint: restore it from a copy, or use another schema`,
      );
    case '42501':
      return make(
        'STORE_UNREADABLE',
        `the role of ${where} may not do this (${said}); grant it the schema's tables, or use another role`,
      );
    case '25006':
      return make(
        'STORE_UNREADABLE',
        `the PostgreSQL server of ${where} only reads (${said}); a writing command needs its primary`,
      );
    case '22021':
    case '22P05':
      return make('INPUT_INVALID', `${where} cannot store a text this write holds (${said})`);
  }
  if (state.startsWith('08') || state.startsWith('57P')) return lost(said, where, make);
  return make('INTERNAL', `PostgreSQL refused a statement of the store at ${where} (${state}: ${said})`);
}

// A step is one statement, committed whole or not at all: a run it stopped has every step before it.
const lost = (said: string, where: string, make: Make): ForkpointError =>
  make(
    'STORE_UNAVAILABLE',
    `lost the connection to the PostgreSQL server of ${where} (${said}); the statement it was making was committed whole or not at all. Run the command again once the server is back; \`forkpoint resume\` continues a run it stopped from its last committed step`,
  );

function sqlStateOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  // A server error's code is its five-character SQLSTATE; Node's network codes start with an E and are longer.
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error ? code : undefined;
}

function networkCode(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node reports every address it tried (IPv4 and IPv6 of `localhost`) as one AggregateError.
  const errors = (error as { errors?: unknown }).errors;
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return first instanceof Error ? networkCode(first) : undefined;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
