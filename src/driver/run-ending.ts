import type { Finding } from '../vocabulary/index.js';
import type { DriveResult } from './drive-types.js';

/**
 * How the end of a drive becomes the run's end. A live run ends at its final
 * step: the step that reached a final state ends the run in the same commit.
 * A replay is judged once the drive is over (a structural replay that stopped
 * early has diverged; its unasked entries are findings), and ends apart.
 */
export type RunEnding =
  | { readonly kind: 'at-final-step' }
  | {
      readonly kind: 'judged';
      /** The drive's result as it is stored, and the findings stored with it. */
      judge(result: DriveResult): JudgedDrive;
    };

/** A drive as a replay judged it. */
export interface JudgedDrive {
  readonly result: DriveResult;
  readonly findings: readonly Finding[];
}

/** The ending of every live run: record, fork, re-execution, resume. */
export const AT_FINAL_STEP: RunEnding = { kind: 'at-final-step' };
