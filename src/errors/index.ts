export {
  ERROR_CODES,
  INPUT_ERROR_CODES,
  RESUMABLE_ERROR_CODES,
  errorKindOf,
  type ErrorCode,
  type ErrorKind,
} from './error-codes.js';
export { ForkpointError, isForkpointError, type ForkpointErrorOptions } from './forkpoint-error.js';
export type { ErrorDetails } from './error-details.js';
export { describeRemedy, type Remedy } from './remedy.js';
