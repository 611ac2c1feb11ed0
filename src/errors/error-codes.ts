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
  OVERRIDE_INVALID: 'input',
  AGENT_MISMATCH: 'input',
  RESUME_REFUSED: 'input',
  COPY_REFUSED: 'input',
  PAGE_NOT_FOUND: 'input',
  PORT_IN_USE: 'input',
  HOST_REFUSED: 'input',
  SCENARIO_LOAD_FAILED: 'input',
  CASSETTE_EXPIRED: 'input',
  CASSETTE_INVALID: 'input',
  CASSETTE_SEALED: 'input',
  PRICES_INVALID: 'input',
  CHECKPOINT_INCOMPATIBLE: 'input',
  STORE_CORRUPT: 'input',
  STORE_UNREADABLE: 'input',
  STORE_TOO_NEW: 'input',
  STORE_OUTDATED: 'input',
  STORE_FULL: 'input',
  STORE_BUSY: 'input',
  STORE_UNREACHABLE: 'input',
  STORE_UNAVAILABLE: 'input',
  OTLP_UNREACHABLE: 'input',
  LEASE_LOST: 'input',
  SESSION_MISUSE: 'input',
  LOOP_NOT_DRIVEN: 'input',
  SIGNATURE_MISSING: 'input',
  APPROVAL_NOT_PENDING: 'input',
  APPROVAL_MISMATCH: 'input',
  REPLAY_DIVERGED: 'outcome',
  VALIDATION_FAILED: 'outcome',
  STEP_CAP_REACHED: 'outcome',
  HOOK_FAILED: 'outcome',
  MODEL_REFUSED: 'outcome',
  PROVIDER_UNMAPPED: 'outcome',
  PROVIDER_REJECTED: 'outcome',
  PROVIDER_FAILED: 'outcome',
  TOOL_FAILED: 'outcome',
  SIDE_EFFECT_BLOCKED: 'outcome',
  AGENT_CODE_FAILED: 'outcome',
  CALL_NOT_APPROVED: 'outcome',
  APPROVAL_REQUIRED: 'outcome',
  INTERNAL: 'internal',
} as const;

/** A stable machine-readable error code. */
export type ErrorCode = keyof typeof CODE_KINDS;

/** What kind of thing a code reports: bad input, a run's outcome, or a bug in forkpoint. */
export type ErrorKind = (typeof CODE_KINDS)[ErrorCode];

/** The kind of an error code (the CLI's exit status follows it: 2, 1 and 3). */
export function errorKindOf(code: ErrorCode): ErrorKind {
  return CODE_KINDS[code];
}

/** Every error code. */
export const ERROR_CODES = Object.keys(CODE_KINDS) as readonly ErrorCode[];

/**
 * Codes that stop a run before it reached an outcome of its own, without the
 * agent's code being at fault: the world could not be reached, the firewall
 * stopped a side effect, the disk filled up, the store's server went away,
 * forkpoint itself failed. `resume` continues such a run from its last
 * committed checkpoint; it refuses the others, since
 * resuming a run that completed or failed in the agent's own code would hide
 * a real outcome.
 */
export const RESUMABLE_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'PROVIDER_FAILED',
  'TOOL_FAILED',
  'SIDE_EFFECT_BLOCKED',
  'STORE_FULL',
  // A store server lost or out of reach mid-run: the run's last step may not have been written, but every
  // committed one was, and a resume continues from there once the server is back.
  'STORE_UNREACHABLE',
  'STORE_UNAVAILABLE',
  'INTERNAL',
]);

/** Codes that mean "the caller gave us something we cannot use": the CLI maps them to exit status 2. */
export const INPUT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set(
  ERROR_CODES.filter((code) => CODE_KINDS[code] === 'input'),
);
