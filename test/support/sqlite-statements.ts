import Database from 'better-sqlite3';

/** One statement better-sqlite3 ran: its text, its arguments, and how many rows it returned. */
export interface Executed {
  readonly sql: string;
  readonly args: readonly unknown[];
  readonly rows: number;
}

/**
 * Every statement better-sqlite3 runs while `work` does, with its arguments and the rows it returned:
 * the store's statements are private, and this is how a test sees what a purge reads.
 */
export async function executedBy(work: () => Promise<unknown>): Promise<Executed[]> {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  const originals = { run: proto.run!, get: proto.get!, all: proto.all!, iterate: proto.iterate! };
  const executed: Executed[] = [];
  const count = (method: string, result: unknown): number =>
    method === 'get' ? (result === undefined ? 0 : 1) : method === 'all' ? (result as unknown[]).length : 0;
  for (const [method, original] of Object.entries(originals)) {
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      const result = original.apply(this, args);
      if (method === 'iterate') {
        const rows = [...(result as Iterable<unknown>)];
        executed.push({ sql: this.source, args, rows: rows.length });
        return rows[Symbol.iterator]();
      }
      executed.push({ sql: this.source, args, rows: count(method, result) });
      return result;
    };
  }
  try {
    await work();
  } finally {
    Object.assign(proto, originals);
  }
  return executed;
}
