import type { JsonObject, JsonValue } from '../json/index.js';
import type { Tier, Finding, Provenance, RunMode, RunStatus } from '../vocabulary/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import type { ParentLink, RunErrorRecord, RunPurge, RunResume } from '../store/index.js';
import type { RunCost, RunCostDetail } from '../pricing/index.js';
import type { PendingApproval } from './pending-approval.js';

/** The agent build a run executed. */
export interface AgentRef {
  readonly name: string;
  readonly build: string;
  readonly codeHash: string;
}

/** One step as every output shows it. */
export interface StepView {
  readonly step: number;
  /** `model` or a tool name. */
  readonly kind: string;
  readonly index: number;
  readonly requestHash: string;
  readonly provenance: Provenance;
  /** Which attempt of the run that holds the step wrote it: 1, or the resume that did (see `RunView.resumes`). */
  readonly attempt: number;
  /** True when the step called a tool that is not read-only for real, past a recording: the firewall let it through by name. */
  readonly sideEffect: boolean;
  /** The canonical request: for a model step, its messages stand as their digests. */
  readonly request: JsonValue;
  /** A model response, or `{ output, isError }` for a tool. */
  readonly response: JsonValue;
}

/** A run as `show --json` prints it. */
export interface RunView {
  readonly mode: RunMode;
  readonly runId: string;
  readonly agent: AgentRef;
  /**
   * `wrapped` on a run of a loop forkpoint does not drive (a session's): it
   * reads as any run does, but only that loop can replay or fork it (by
   * prefix replay). Absent on a driven run's, as on its cassette.
   */
  readonly loop?: 'wrapped';
  readonly scenario: string | null;
  readonly input: JsonObject;
  /** The date the world the run met said it answered as of (see `World.worldAt`). */
  readonly worldAt: string | null;
  /** The seed the world the run met said its model sampled with. */
  readonly seed: number | null;
  readonly status: RunStatus;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
  readonly steps: readonly StepView[];
  readonly parent: ParentLink | null;
  /** The run this one replays or re-executes. */
  readonly sourceRunId: string | null;
  /** The cassette file a replay read, when it did not read the database. */
  readonly sourceCassette: string | null;
  /**
   * Divergences and dropped calls a replay met; empty for other modes. These
   * are plain {@link Finding} objects, as the run's row stores them, not
   * errors: a replay's {@link ReplayResult.divergence} is the one to throw.
   * Once the run's full tier has expired they are shaped (see `ShapedFinding`).
   */
  readonly findings: readonly Finding[];
  readonly createdAt: string;
  readonly finishedAt: string | null;
  /** What the store holds of the run and until when. */
  readonly retention: RunRetention;
  /** The side-effect firewall the run's first attempt ran under; null where it does not apply (a recording, a strict replay). Each resume says its own. */
  readonly sideEffects: SideEffectPolicy | null;
  /** Every resume of the run, oldest first. */
  readonly resumes: readonly RunResume[];
  /**
   * What its model steps cost, priced from its steps by the engine's price
   * table: `paid` (live), `avoided` (recorded: what a replay did not pay),
   * `inherited` (a fork's steps from its parent), and each model step's cost.
   * Once its full tier has expired, the totals it stored when it ended
   * (without `inherited`, and no step's); null when it has neither.
   */
  readonly cost: RunCostDetail | null;
  /**
   * The call a person is asked to approve, when the run stopped at rest
   * waiting for that answer (status `awaiting-approval`, or `interrupted`
   * where its last checkpoint waits for one): the tool, its input, and the
   * request hash an answer names (`forkpoint approve <run> --call <hash>`).
   * Null for every other run, and for a waiting run whose full tier has
   * expired (the question was a payload of it; `retention.expired` says so).
   */
  readonly pendingApproval: PendingApproval | null;
}

/** What the store holds of a run, and until when (see `Tier`). */
export interface RunRetention {
  /** What the run's rows hold (`full`, `structural` for a structural replay, or `synthetic`). */
  readonly tier: Tier;
  /** When the rows expire; null: never. */
  readonly expiresAt: string | null;
  /** When the structural record expires; null: never. */
  readonly structuralExpiresAt: string | null;
  /** Set once the rows were removed: the summary and the structural record are what remains. */
  readonly purge: RunPurge | null;
  /**
   * True once the full tier has expired, removed by `gc` or not: a read then
   * shows no steps and the summary's payloads shaped.
   */
  readonly expired: boolean;
}

/**
 * A run in a listing: everything but its steps. Its `cost` is priced from the
 * token totals the run stored when it ended (its own steps: a fork's
 * `inherited` is null, since a listing reads no steps); null while it runs,
 * and for runs that ended before forkpoint kept them. It says no pending
 * approval: finding the call would restore a checkpoint per row (a read of
 * the run has it, see {@link RunView.pendingApproval}).
 */
export type RunSummary = Omit<RunView, 'steps' | 'cost' | 'pendingApproval'> & {
  readonly stepCount: number;
  readonly cost: RunCost | null;
};
