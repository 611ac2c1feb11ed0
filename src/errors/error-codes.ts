/**
 * Every stable error code forkpoint can raise. Codes are part of the public
 * contract: scripts and CI match on them, so they never change meaning.
 */
export const ERROR_CODES = [
  'USAGE',
  'INPUT_INVALID',
  'SCENARIO_NOT_FOUND',
  'BUILD_NOT_FOUND',
  'RUN_NOT_FOUND',
  'RUN_EXISTS',
  'STEP_OUT_OF_RANGE',
  'OVERRIDE_MISMATCH',
  'REPLAY_DIVERGED',
  'CASSETTE_EXPIRED',
  'CASSETTE_INVALID',
  'VALIDATION_FAILED',
  'STEP_CAP_REACHED',
  'HOOK_FAILED',
  'PROVIDER_REJECTED',
  'TOOL_UNKNOWN',
  'CHECKPOINT_INCOMPATIBLE',
  'STORE_CORRUPT',
  'STORE_UNREADABLE',
  'STORE_TOO_NEW',
  'INTERNAL',
] as const;

/** A stable machine-readable error code. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes that mean "the caller gave us something we cannot use": the CLI maps
 * them to exit status 2. Everything else that escapes a command is either a
 * run outcome (exit 1) or a bug (exit 3).
 */
export const INPUT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'USAGE',
  'INPUT_INVALID',
  'SCENARIO_NOT_FOUND',
  'BUILD_NOT_FOUND',
  'RUN_NOT_FOUND',
  'RUN_EXISTS',
  'STEP_OUT_OF_RANGE',
  'OVERRIDE_MISMATCH',
  'CASSETTE_EXPIRED',
  'CASSETTE_INVALID',
  'CHECKPOINT_INCOMPATIBLE',
  'STORE_CORRUPT',
  'STORE_UNREADABLE',
  'STORE_TOO_NEW',
]);
