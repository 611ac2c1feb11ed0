import type { ErrorContext, FailurePhase } from './postgres-errors.js';
import { isConnectionLost, translatePostgresError } from './postgres-errors.js';
import type { PostgresClient, PostgresPool, PostgresResult } from './postgres-pool.js';
import type { Executor, Statement } from './sql-statement.js';

/** What every connection the store uses is set to. */
export interface ConnectionSettings {
  readonly schema: string;
  readonly statementTimeoutMs: number;
  /** `off` for `NORMAL`, `on` for `FULL`. */
  readonly synchronousCommit: 'on' | 'off';
}

/** How the store reaches its server: statements, transactions, consistent reads. */
export interface PostgresConnection {
  /** Each statement on a pooled connection, in a transaction of its own. */
  readonly pooled: Executor;
  /** `work` in one transaction on one connection; `begin` replaces `BEGIN` (with statements of its own, no parameters). */
  transaction<T>(work: (executor: Executor) => Promise<T>, begin?: string): Promise<T>;
  /**
   * `work` in one `REPEATABLE READ READ ONLY` transaction, which overlapping
   * calls share (they see the state the first one opened). Its result comes
   * back as soon as the work is done: the `COMMIT` of a transaction that only
   * read is not waited for, and the connection goes back to the pool after it.
   */
  readSnapshot<T>(work: (executor: Executor) => Promise<T>): Promise<T>;
  /** Texts of several statements at once, without parameters, on one connection: the migrations. */
  script<T>(
    work: (run: (text: string, values?: readonly unknown[]) => Promise<PostgresResult>) => Promise<T>,
  ): Promise<T>;
  /** Waits for what is in flight; ends the pool if the store made it. */
  end(): Promise<void>;
}

/** How {@link postgresConnection} treats its pool. */
export interface ConnectionOptions {
  readonly settings: ConnectionSettings;
  /**
   * True for a pool made elsewhere: each of its connections is set (one
   * statement) the first time the store checks it out. A pool the store made
   * sets them when it connects (startup options), and is ended by `end`.
   */
  readonly sharedPool: boolean;
  readonly errors: ErrorContext;
}

// The settings each connection of a shared pool was last given by a store, by client: two stores on one
// pool (two schemas, say) set a connection again when it changes hands.
const configured = new WeakMap<object, string>();

/**
 * How the store's connections plan their prepared statements: once, for
 * any parameters. Every statement of the store finds its rows by key, which
 * a generic plan does as well as a custom one, and PostgreSQL otherwise keeps
 * planning some (the restore, a recursive CTE over six relations) afresh on
 * every call: measured here, 2.2 ms of planning for 0.4 ms of execution, a
 * restore of step 200 in 4.2 ms against 2.4 ms with generic plans.
 */
export const PLAN_CACHE_MODE = 'force_generic_plan';

/**
 * No just-in-time compilation on the store's connections: PostgreSQL compiles
 * a statement whose estimated cost is high, which a generic plan of a purge's
 * recursive CTE is, and measured here that took 22 ms for a statement that
 * ran in 1.
 */
export const JIT = 'off';

const SET_CONNECTION = `SELECT set_config('search_path', $1, false), set_config('statement_timeout', $2, false),
  set_config('synchronous_commit', $3, false), set_config('plan_cache_mode', '${PLAN_CACHE_MODE}', false),
  set_config('jit', '${JIT}', false)`;

/** A checked-out client, its statements translated, released once, and never reused once its connection is lost. */
interface Held {
  run(text: string, values?: readonly unknown[], name?: string): Promise<PostgresResult>;
  release(): void;
}

/** The store's connection over `pool`. */
export function postgresConnection(pool: PostgresPool, options: ConnectionOptions): PostgresConnection {
  const { settings, errors } = options;
  const key = `${settings.schema}\u0000${settings.statementTimeoutMs}\u0000${settings.synchronousCommit}`;
  const translate = (error: unknown, phase: FailurePhase): unknown => translatePostgresError(error, errors, phase);
  const inFlight = new Set<Promise<unknown>>();
  const track = (promise: Promise<unknown>): void => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };

  const checkout = async (): Promise<Held> => {
    let client: PostgresClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw translate(error, 'connect');
    }
    // A connection that dies while checked out and idle says so by an event, which would crash the
    // process with no listener; the next statement on it then fails, and the pool gets it back as broken.
    let lost: Error | undefined;
    const onError = (error: Error): void => {
      lost = error;
    };
    client.on('error', onError);
    let released = false;
    const held: Held = {
      async run(text, values, name) {
        try {
          return await client.query({
            text,
            ...(values === undefined ? {} : { values }),
            ...(name === undefined ? {} : { name }),
          });
        } catch (error) {
          if (isConnectionLost(error)) lost = error instanceof Error ? error : new Error(String(error));
          throw translate(error, 'statement');
        }
      },
      release() {
        if (released) return;
        released = true;
        client.removeListener('error', onError);
        client.release(lost ?? false);
      },
    };
    if (options.sharedPool && configured.get(client) !== key) {
      try {
        await held.run(SET_CONNECTION, [
          settings.schema,
          String(settings.statementTimeoutMs),
          settings.synchronousCommit,
        ]);
      } catch (error) {
        held.release();
        throw error;
      }
      configured.set(client, key);
    }
    return held;
  };

  const executorOf = (held: Held): Executor => ({
    async rows<Row>(statement: Statement, values?: readonly unknown[]) {
      return (await held.run(statement.text, values ?? [], statement.name)).rows as Row[];
    },
    async count(statement: Statement, values?: readonly unknown[]) {
      return (await held.run(statement.text, values ?? [], statement.name)).rowCount ?? 0;
    },
  });

  const withHeld = async <T>(work: (held: Held) => Promise<T>): Promise<T> => {
    const held = await checkout();
    try {
      return await work(held);
    } finally {
      held.release();
    }
  };

  const pooled: Executor = {
    rows: (statement, values) => withHeld((held) => executorOf(held).rows(statement, values)),
    count: (statement, values) => withHeld((held) => executorOf(held).count(statement, values)),
  };

  // The read transaction open now, shared by the reads that overlap it.
  let shared: { readonly ready: Promise<{ held: Held; executor: Executor }>; users: number } | undefined;

  return {
    pooled,
    transaction: (work, begin = 'BEGIN') =>
      withHeld(async (held) => {
        await held.run(begin);
        try {
          const result = await work(executorOf(held));
          await held.run('COMMIT');
          return result;
        } catch (error) {
          // A lost connection rolled back on its own; any other failure leaves nothing behind either.
          if (!isConnectionLost(error)) await held.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    async readSnapshot(work) {
      if (shared === undefined) {
        const ready = checkout().then(async (held) => {
          try {
            await held.run('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
          } catch (error) {
            held.release();
            throw error;
          }
          return { held, executor: executorOf(held) };
        });
        // Every sharer awaits it; this keeps a failed start from being reported as unhandled meanwhile.
        ready.catch(() => undefined);
        shared = { ready, users: 0 };
      }
      const current = shared;
      current.users++;
      try {
        const { executor } = await current.ready;
        return await work(executor);
      } finally {
        if (--current.users === 0) {
          if (shared === current) shared = undefined;
          track(
            current.ready.then(
              ({ held }) =>
                held.run('COMMIT').then(
                  () => {
                    held.release();
                  },
                  () => {
                    held.release();
                  },
                ),
              () => undefined,
            ),
          );
        }
      }
    },
    script: (work) => withHeld((held) => work((text, values) => held.run(text, values))),
    async end() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      if (!options.sharedPool) await pool.end();
    },
  };
}
