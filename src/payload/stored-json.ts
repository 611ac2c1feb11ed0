import { ForkpointError } from '../errors/index.js';

/**
 * Runs `decode`, which parses text the store gave back, and turns a parse
 * failure into `STORE_CORRUPT`: forkpoint wrote that text as JSON, so text
 * that does not parse was cut short or changed outside forkpoint. One guard
 * per decode, not per value: the decode paths are hot.
 */
export function decodingStored<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${what} in the store is not the JSON forkpoint wrote (${error.message.split('\n')[0]}): it was cut short or changed outside forkpoint; restore the database from a copy`,
      {
        cause: error,
      },
    );
  }
}
