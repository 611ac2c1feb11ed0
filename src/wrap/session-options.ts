import type { Cassette } from '../cassette/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import type { ForkOverride } from '../fork/index.js';
import type { JsonObject } from '../json/index.js';

/** What every session says of the loop it wraps. */
export interface SessionLoop {
  /**
   * The loop's name, stored as the run's agent: every run of the loop shares
   * it, and a session refuses to replay another loop's recording.
   */
  readonly agent: string;
  /** Which version of the loop's code this is (`baseline`, `patched`, a commit); default `default`. */
  readonly build?: string;
  /** A hash of the loop's code, when the caller has one (a commit id); default: one of the agent and build. */
  readonly codeHash?: string;
  /** What the loop was asked to do, stored as the run's input; default `{}`. A replay's is its source's. */
  readonly input?: JsonObject;
  /** Where the loop came from, stored with the run like a scenario's name. */
  readonly scenario?: string;
}

/** A session that records: every call goes live and is stored as a step of a new run. */
export interface RecordSession extends SessionLoop {
  readonly mode: 'record';
  /** The run's id; default: minted. */
  readonly runId?: string;
  /**
   * `synthetic` for a recording made to be kept (a test fixture, a demo): it
   * never expires, and exports as an open file that `forkpoint/testing` reads.
   * Default `full`, kept as long as the store's full-tier retention says.
   */
  readonly tier?: 'full' | 'synthetic';
}

/** A session that replays a recording: a stored run's id, or a cassette read from a file. */
export interface ReplaySession extends SessionLoop {
  readonly mode: 'replay:strict' | 'replay:fidelity';
  readonly source: string | Cassette;
  /**
   * What a `replay:fidelity` session does at a miss: `stop` (the default:
   * the call fails, the run ends `diverged`), or `live`, asked by name: from
   * the miss on, calls go to the live world behind the side-effect firewall.
   */
  readonly onMiss?: 'stop' | 'live';
  /** Which side-effecting tools a fidelity replay going live may call, or simulate. Default: none. */
  readonly sideEffects?: SideEffectOption;
}

/**
 * A fork by prefix replay: the loop runs again from its start; its calls
 * before step `atStep` are answered from the recording of run `source` (they
 * must be the recorded calls), the tool call at `atStep` gets the override's
 * answer, and every later call goes live behind the side-effect firewall.
 * No state is restored: the loop's own code rebuilds it from the prefix.
 */
export interface ForkPrefixSession extends SessionLoop {
  readonly mode: 'fork:prefix';
  readonly source: string;
  readonly atStep: number;
  /** A tool step's new answer: `tool-result`, `tool-merge`, `tool-patch` or `tool-error`. */
  readonly override: ForkOverride;
  /** Which side-effecting tools may be called after the fork, or simulated. Default: none. */
  readonly sideEffects?: SideEffectOption;
}

/** What a session is: one run of a loop forkpoint does not drive, in one mode. */
export type SessionOptions = RecordSession | ReplaySession | ForkPrefixSession;

/** Every mode a session can have. */
export const SESSION_MODES = ['record', 'replay:strict', 'replay:fidelity', 'fork:prefix'] as const;

/** A session's mode. */
export type SessionMode = (typeof SESSION_MODES)[number];
