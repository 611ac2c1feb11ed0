import { ForkpointError } from '../../src/index.js';

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
