export {
  ERROR_CODES,
  INPUT_ERROR_CODES,
  RESUMABLE_ERROR_CODES,
  errorKindOf,
  type ErrorCode,
  type ErrorKind,
} from './error-codes.js';
export { ForkpointError, isForkpointError, type ForkpointErrorOptions } from './forkpoint-error.js';
