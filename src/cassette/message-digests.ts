/**
 * The digests of a model request's messages, as a prefix of its run's digest
 * list rather than a copy of it: a copy on every step cost O(length) per step
 * and O(length^2) per run. The run's hasher only ever appends to the list, so
 * the first `length` digests never change once the request was hashed, however
 * far the list has grown since.
 */
export interface MessageDigests {
  /** How many messages the request has. */
  readonly length: number;
  /** The run's digest list, append-only: its first `length` entries are the request's. */
  readonly list: readonly string[];
}

/** The digests of a request as an array of their own: a copy of `length` entries, for whoever keeps them. */
export function digestArray(digests: MessageDigests): string[] {
  return digests.list.slice(0, digests.length);
}
