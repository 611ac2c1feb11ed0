import type { ErrorCode } from '../../errors/index.js';
import { errorKindOf } from '../../errors/index.js';

const NOT_FOUND: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'RUN_NOT_FOUND',
  'STEP_OUT_OF_RANGE',
  'PAGE_NOT_FOUND',
  'SCENARIO_NOT_FOUND',
  'BUILD_NOT_FOUND',
]);
const UNAVAILABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'STORE_BUSY',
  'STORE_UNREACHABLE',
  'STORE_UNAVAILABLE',
  'STORE_UNREADABLE',
  'STORE_CORRUPT',
  'STORE_TOO_NEW',
  'STORE_OUTDATED',
]);

/**
 * The HTTP status of an error code: what was asked for does not exist (404),
 * has expired (410), cannot be read from the store now (503), was asked
 * wrongly (400), or forkpoint failed (500).
 */
export function httpStatusOf(code: ErrorCode): number {
  if (NOT_FOUND.has(code)) return 404;
  if (code === 'CASSETTE_EXPIRED') return 410;
  if (UNAVAILABLE.has(code)) return 503;
  return errorKindOf(code) === 'internal' ? 500 : 400;
}
