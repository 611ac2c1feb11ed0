/**
 * Every stable error code, and what kind of thing it reports. Codes are part
 * of the public contract: scripts and CI match on them, so they never change
 * meaning. `input` codes mean the caller gave something unusable (CLI exit 2);
 * `outcome` codes end a run (exit 1 through the run's status); `internal`
 * is a bug (exit 3).
 */
const CODE_KINDS = {
  USAGE: 'input',
  INPUT_INVALID: 'input',
  SCENARIO_NOT_FOUND: 'input',
  BUILD_NOT_FOUND: 'input',
  RUN_NOT_FOUND: 'input',
  RUN_EXISTS: 'input',
  STEP_OUT_OF_RANGE: 'input',
  OVERRIDE_MISMATCH: 'input',
  CASSETTE_EXPIRED: 'input',
  CASSETTE_INVALID: 'input',
  CHECKPOINT_INCOMPATIBLE: 'input',
  STORE_CORRUPT: 'input',
  STORE_UNREADABLE: 'input',
  STORE_TOO_NEW: 'input',
  REPLAY_DIVERGED: 'outcome',
  VALIDATION_FAILED: 'outcome',
  STEP_CAP_REACHED: 'outcome',
  HOOK_FAILED: 'outcome',
  PROVIDER_REJECTED: 'outcome',
  INTERNAL: 'internal',
} as const;

/** A stable machine-readable error code. */
export type ErrorCode = keyof typeof CODE_KINDS;

/** Every error code. */
export const ERROR_CODES = Object.keys(CODE_KINDS) as readonly ErrorCode[];

/** Codes that mean "the caller gave us something we cannot use": the CLI maps them to exit status 2. */
export const INPUT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set(ERROR_CODES.filter((code) => CODE_KINDS[code] === 'input'));
