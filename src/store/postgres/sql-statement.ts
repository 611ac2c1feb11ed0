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

// PostgreSQL cuts a name past 63 bytes, which would leave two long names that differ only in their digest
// as one on the server, while the driver, which keeps the whole name, prepares both under it.
const MAX_NAME_BYTES = 63;
const DIGEST_CHARS = 12;
const MAX_READABLE = MAX_NAME_BYTES - 'forkpoint_'.length - 1 - DIGEST_CHARS;

/** A {@link Statement} named `name` (its first 40 characters: the digest tells the rest apart). */
export function statement(name: string, text: string): Statement {
  const digest = createHash('sha256').update(text).digest('hex').slice(0, DIGEST_CHARS);
  return { name: `forkpoint_${name.slice(0, MAX_READABLE)}_${digest}`, text };
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
