import { createHash } from 'node:crypto';

/**
 * One SQL statement of the store. Its name is what each connection keeps it
 * prepared under, so that the server parses and plans a statement once per
 * connection, not once per call; a digest of the text in the name keeps two
 * texts from ever sharing one.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** A {@link Statement} named `name`. */
export function statement(name: string, text: string): Statement {
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return { name: `forkpoint_${name}_${digest}`, text };
}

/** Runs statements: each on a pooled connection of its own, or all on the one of a transaction. */
export interface Executor {
  /** The rows `statement` returns. */
  rows<Row>(statement: Statement, values?: readonly unknown[]): Promise<Row[]>;
  /** How many rows `statement` wrote (or returned). */
  count(statement: Statement, values?: readonly unknown[]): Promise<number>;
}

/**
 * A PostgreSQL array literal of `items` (`{"a","b"}`), for a parameter that
 * is an array of arrays: node-postgres sends nested arrays as a
 * multidimensional array, which must be rectangular, so each inner array goes
 * as the text of one element and is cast back in SQL (`refs::text[]`).
 */
export function arrayLiteral(items: Iterable<string>): string {
  const quoted: string[] = [];
  for (const item of items) quoted.push(`"${item.replace(/[\\"]/g, (character) => `\\${character}`)}"`);
  return `{${quoted.join(',')}}`;
}
