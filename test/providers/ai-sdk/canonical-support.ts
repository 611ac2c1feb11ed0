import type { ModelRequest } from '../../../src/conversation/index.js';
import { RequestHasher } from '../../../src/cassette/request-hasher.js';
import { isForkpointError, type ForkpointError } from '../../../src/errors/index.js';

/** The request hash a driven run gives `request` as its first call: a fresh hasher, as one run's. */
export const hashOf = (request: ModelRequest): string => new RequestHasher().hashModelRequest(request).requestHash;

/** The ForkpointError `act` throws (the test fails if it throws none, or another kind). */
export function refusalOf(act: () => unknown): ForkpointError {
  try {
    act();
  } catch (error) {
    if (isForkpointError(error)) return error;
    throw error;
  }
  throw new Error('expected a ForkpointError, but nothing was thrown');
}
