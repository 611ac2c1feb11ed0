import type { JsonObject, JsonValue } from '../json/index.js';
import type { World } from '../world/index.js';
import type { WorldOptions } from './world-options.js';

/**
 * One hand-written synthetic case: a made-up input in a made-up world, with the
 * outcome it must reach. Synthetic cases hold no customer data, so their runs
 * are kept without expiry (the `synthetic` tier).
 */
export interface SyntheticCase {
  /** The case id, unique within its directory (`SYN-07`). */
  readonly id: string;
  /** The file the case was read from. */
  readonly file: string;
  /** A sentence or two on what happens in the case, for people reading a failure. */
  readonly narrative: string;
  /** The harness paths the case exercises (`approve`, `refer-low-confidence`, `ocr-timeout-retried`, ...). */
  readonly paths: readonly string[];
  /** The world's date the case runs on, `YYYY-MM-DD`. */
  readonly at: string;
  /** The run's input. */
  readonly input: JsonObject;
  /** The expected outcome, in the scenario's terms; shown as written. */
  readonly expected: JsonObject;
  /** The whole case as written: the scenario reads its world out of it. */
  readonly data: JsonObject;
}

/** How a synthetic run ended, as a scorer sees it. */
export interface SyntheticRunResult {
  readonly status: string;
  readonly outcome: JsonObject | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** A case's score: whether the run reached the expected outcome, and both sides in words. */
export interface SyntheticVerdict {
  readonly pass: boolean;
  /** The expectation in a few words (`approve, payout 1500-1600`). */
  readonly expected: string;
  /** What the run did in a few words (`refer`, `failed: VALIDATION_FAILED`). */
  readonly actual: string;
}

/** What a scenario provides to run and score hand-written synthetic cases (`forkpoint eval`). */
export interface SyntheticSupport {
  /** Reads one case file's JSON; throws `INPUT_INVALID` naming the file and the field when it is malformed. */
  parseCase(value: JsonValue, file: string): SyntheticCase;
  /** The live world the case runs in: its claim, documents and policy, as of `options.at`. */
  openWorld(testCase: SyntheticCase, options: WorldOptions): World;
  /** Scores a finished run against the case's expectation. */
  score(testCase: SyntheticCase, result: SyntheticRunResult): SyntheticVerdict;
}
