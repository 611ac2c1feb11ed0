import type { ErrorCode } from '../errors/index.js';
import type { Tier } from '../vocabulary/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import type { CheckpointMigration, Finding, RunMode } from '../vocabulary/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import type { UsageTotal } from '../pricing/index.js';
import type { FailureSignature } from '../signature/index.js';

/** Why a run did not complete. */
export interface RunErrorRecord {
  readonly code: ErrorCode;
  readonly message: string;
  /** The step the error belongs to; the step that would have come next when no observation was made. */
  readonly step: number;
}

/** Why a run's step rows were removed: they expired, or the capture policy did not keep them. */
export type PurgeReason = 'expired' | 'capture-policy';

/** When and why a run's step rows (its full tier) were removed. */
export interface RunPurge {
  readonly at: string;
  readonly reason: PurgeReason;
}

/** The run a fork branched from, and what it changed there. */
export interface ParentLink {
  readonly runId: string;
  readonly atStep: number;
  /** The override as the fork recorded it (an edit recipe is stored as its patch list). */
  readonly override: JsonValue;
  /**
   * What the override changed, field by field (`{ path, before, after }`),
   * however it was written: in step N's response, or for a prompt or model
   * change the `system` or `model` of the requests from step N on; null for
   * forks made before forkpoint recorded it.
   */
  readonly changes: readonly JsonObject[] | null;
  /**
   * What was done to the checkpoint so that the fork's build could continue
   * it (see `CheckpointMigration`); absent when it was continued as stored.
   */
  readonly migration?: CheckpointMigration;
}

/**
 * The process that works on a `running` run. It holds a lease it renews while
 * it lives; once the lease has lapsed, or its process is gone from this host,
 * the run was interrupted and may be resumed. Every write the owner makes
 * names its token, so a process that lost its run to a resume cannot write
 * into it again.
 */
export interface RunOwner {
  readonly pid: number;
  /** The host and PID namespace the pid belongs to; null for runs recorded before leases. */
  readonly host: string | null;
  /** Names the owner in every write; null for runs recorded before leases. */
  readonly token: string | null;
  /** Until when the lease holds, in milliseconds since the epoch by the lease clock; null before leases. */
  readonly leaseExpiresAt: number | null;
}

/** One resume of a run: which attempt it started, from which step, when, and why the run needed it. */
export interface RunResume {
  /** The attempt this resume began: 2 for the first resume (the original run is attempt 1). */
  readonly attempt: number;
  /** The first step this attempt wrote: the one after the last committed checkpoint. */
  readonly fromStep: number;
  /** When it resumed (ISO, by the engine's clock). */
  readonly at: string;
  /** What the run was when resumed: `interrupted`, or the code it had stopped with. */
  readonly after: string;
  /** The side-effect policy the resumed attempt runs under. */
  readonly sideEffects: SideEffectPolicy;
  /** What was done to the checkpoint it continued from (a machine migration); absent when nothing was. */
  readonly migration?: CheckpointMigration;
}

/** Everything a store keeps about one run, apart from its steps. */
export interface RunRecord {
  readonly runId: string;
  readonly mode: RunMode;
  readonly agentName: string;
  readonly build: string;
  readonly codeHash: string;
  /** The scenario the run came from, as given on the command line; null for library use. */
  readonly scenario: string | null;
  readonly input: JsonObject;
  /** The date of the world the run observed (`YYYY-MM-DD`); null when it observed no world. */
  readonly worldAt: string | null;
  readonly seed: number | null;
  readonly status: RunStatus;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
  readonly parent: ParentLink | null;
  /** The run this one replays or re-executes (it may live in another database). */
  readonly sourceRunId: string | null;
  /** The cassette file a replay read, when it did not read this database. */
  readonly sourceCassette: string | null;
  /** What the run found on the way (divergences, dropped calls), as the engine reports them; shaped once its full tier expired. */
  readonly findings: readonly Finding[];
  readonly canonicalForm: string;
  readonly machineVersion: number;
  /** ISO timestamps from the injected clock. */
  readonly createdAt: string;
  readonly finishedAt: string | null;
  /** Steps committed so far. */
  readonly stepCount: number;
  /** The process that owns a `running` run; null once it has ended. */
  readonly owner: RunOwner | null;
  /**
   * The side-effect firewall the run's first attempt ran under; null for runs
   * it does not apply to (a recording is the original run; a strict replay
   * never goes live). Each resume carries its own.
   */
  readonly sideEffects: SideEffectPolicy | null;
  /** Every resume of the run, oldest first; empty when it ran in one attempt. */
  readonly resumes: readonly RunResume[];
  /** What the run's step rows hold: `full` payloads, `structural` shapes (a structural replay), or a `synthetic` case. */
  readonly tier: Tier;
  /** When the step rows must be removed (ISO); null: never (synthetic runs). */
  readonly expiresAt: string | null;
  /** When the structural record must be removed (ISO); null: never. */
  readonly structuralExpiresAt: string | null;
  /** Set once the step rows are gone; the run summary and the structural record remain. */
  readonly purge: RunPurge | null;
  /**
   * The tokens of the run's own model steps (a fork's from its fork point on),
   * by model and provenance, stored when it ends, so that a listing prices it
   * without reading its steps, and after they expired. Null while it runs, and
   * for runs that ended before forkpoint kept them (a read of its steps prices those).
   */
  readonly usage: readonly UsageTotal[] | null;
  /**
   * How the run ended, with what varies between runs of one class left out
   * (see `FailureSignature`): stored when it ends, kept when its full tier
   * goes. Null while it runs, and for runs that ended before forkpoint made them.
   */
  readonly signature: FailureSignature | null;
}

/** What a store needs to create a run. */
export type NewRunRecord = Omit<
  RunRecord,
  'status' | 'outcome' | 'error' | 'finishedAt' | 'stepCount' | 'findings' | 'purge' | 'resumes' | 'usage' | 'signature'
>;

/** A run as a store holds it right after it was created: running, with no step, finding or resume yet. */
export function startedRunRecord(run: NewRunRecord): RunRecord {
  return {
    ...run,
    status: 'running',
    outcome: null,
    error: null,
    findings: [],
    finishedAt: null,
    stepCount: 0,
    purge: null,
    resumes: [],
    usage: null,
    signature: null,
  };
}

/** How a run ended. */
export interface RunFinish {
  readonly status: Exclude<RunStatus, 'running' | 'interrupted'>;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
  readonly finishedAt: string;
  /** Divergences and other findings; empty when there are none. */
  readonly findings?: readonly Finding[];
  /** The tokens of the run's own model steps, every attempt's (see `RunRecord.usage`); absent: not known. */
  readonly usage?: readonly UsageTotal[];
  /** The run's failure signature (see `RunRecord.signature`); absent: not known. */
  readonly signature?: FailureSignature;
}
