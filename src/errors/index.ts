export { ERROR_CODES, INPUT_ERROR_CODES, RESUMABLE_ERROR_CODES, type ErrorCode } from './error-codes.js';
export { ForkpointError, isForkpointError, type ForkpointErrorOptions } from './forkpoint-error.js';
