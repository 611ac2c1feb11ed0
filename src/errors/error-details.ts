import type { Remedy } from './remedy.js';

/**
 * What an error is about, as data beside its message: programs read these
 * instead of parsing words, and a front end (the CLI) turns the remedy into
 * its own hints. Each field is set only where the error knows it.
 */
export interface ErrorDetails {
  /** The run the error is about. */
  readonly runId?: string;
  /** The step of that run. */
  readonly step?: number;
  /** The file the error is about: a database, a cassette. */
  readonly path?: string;
  /** The field of the caller's input at fault, as a path (`system-prompt.system`, `operations[0].op`). */
  readonly field?: string;
  /** The value at fault, verbatim (plain JSON): a provider's response an adapter could not map, say. */
  readonly data?: unknown;
  /** What the caller can do next, in the library's terms. */
  readonly remedy?: Remedy;
}
