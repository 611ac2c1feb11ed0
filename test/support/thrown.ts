import { ForkpointError } from '../../src/errors/index.js';

/** The ForkpointError `action` throws; anything else it throws is rethrown, and throwing nothing fails. */
export function thrown(action: () => unknown): ForkpointError {
  try {
    action();
  } catch (error) {
    if (error instanceof ForkpointError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

/** The code of the ForkpointError `work` rejects with, a note naming anything else it rejects with, or undefined when it resolves. */
export async function rejectionCode(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return error instanceof ForkpointError ? error.code : `not a ForkpointError: ${String(error)}`;
  }
  return undefined;
}
