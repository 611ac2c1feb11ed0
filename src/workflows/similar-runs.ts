import { hasEnded } from '../vocabulary/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import type { Engine } from '../engine/index.js';
import { assertRunId } from '../engine/index.js';
import { ForkpointError } from '../errors/index.js';
import type { FailureSignature } from '../signature/index.js';
import { SIGNATURE_VERSION } from '../signature/index.js';
import type { GroupCounts } from './signature-classes.js';
import { counted, groupCounts, periodOf, recordedRuns, sharedPrefix } from './signature-classes.js';
import { endingWords, leadWords, trajectoryWords } from './signature-words.js';

/** Which runs `similarRuns` looks among: those recorded from `since` (ISO) on, or all. */
export interface SimilarQuery {
  readonly since?: string;
  /** Only runs recorded strictly before this ISO timestamp. */
  readonly until?: string;
}

/** The runs like one run, as `forkpoint similar --json` prints them. */
export interface SimilarResult {
  readonly mode: 'similar';
  readonly runId: string;
  readonly since: string | null;
  readonly signature: FailureSignature;
  /** The signature in words: its trajectory, its ending, and the observation that led there. */
  readonly words: { readonly trajectory: string; readonly ending: string; readonly lead: string | null };
  /** How many runs were recorded in the period (the run's class is a share of them). */
  readonly recorded: number;
  /** The recorded runs of the run's class (itself included, when recorded in the period), oldest first. */
  readonly same: GroupCounts & { readonly share: number; readonly runIds: readonly string[] };
  /**
   * The recorded runs that took the same path up to the observation that
   * led to the ending, and then ended otherwise: counted by their ending.
   */
  readonly samePath: GroupCounts & {
    readonly byEnding: Readonly<Record<string, number>>;
    readonly runIds: readonly string[];
  };
}

/**
 * The recorded runs that share a run's failure signature, and those that
 * share its path up to the observation that led to its ending (see
 * `FailureSignature`), with counts by build, day and outcome, and the share
 * of the period's recorded runs they are. Reads no payload, so it answers
 * the same once the runs' full tiers expired. `RUN_NOT_FOUND` for an unknown
 * run; `SIGNATURE_MISSING` for one that has not ended, or ended before
 * forkpoint made signatures.
 *
 * @example
 * ```ts
 * const like = await similarRuns(engine, '9b40c1d5', { since: '2026-03-01T00:00:00.000Z' });
 * console.log(`${like.same.runs} runs of ${like.recorded}`);
 * ```
 */
export async function similarRuns(engine: Engine, runId: string, query: SimilarQuery = {}): Promise<SimilarResult> {
  assertRunId(runId);
  const run = await engine.store.getRun(runId);
  if (run === undefined) throw new ForkpointError('RUN_NOT_FOUND', `no run ${runId} in ${engine.store.location}`);
  const { signature } = run;
  if (signature === null) throw missing(runId, run.status);
  const period = recordedRuns(await engine.store.listSignedRuns(periodOf(query)));
  const comparable = period.filter((other) => other.signature.version === signature.version);
  const same = comparable.filter((other) => other.signature.digest === signature.digest);
  const pathLength = signature.lead === null ? signature.trajectory.length : signature.lead + 1;
  const samePath = comparable.filter(
    (other) => other.signature.digest !== signature.digest && sharedPrefix(signature, other.signature) >= pathLength,
  );
  return {
    mode: 'similar',
    runId,
    since: query.since ?? null,
    signature,
    words: { trajectory: trajectoryWords(signature), ending: endingWords(signature), lead: leadWords(signature) },
    recorded: period.length,
    same: {
      ...groupCounts(same),
      share: period.length === 0 ? 0 : same.length / period.length,
      runIds: same.map((other) => other.runId),
    },
    samePath: {
      ...groupCounts(samePath),
      byEnding: counted(samePath.map((other) => endingWords(other.signature))),
      runIds: samePath.map((other) => other.runId),
    },
  };
}

function missing(runId: string, status: RunStatus): ForkpointError {
  if (status === 'awaiting-approval')
    return new ForkpointError(
      'SIGNATURE_MISSING',
      `run ${runId} has not ended: it waits for a person's approval, and a run gets its signature when it ends; \`forkpoint show ${runId}\` names the call to answer`,
    );
  return new ForkpointError(
    'SIGNATURE_MISSING',
    !hasEnded(status)
      ? `run ${runId} has not ended: a run gets its signature when it ends`
      : `run ${runId} ended before forkpoint made failure signatures (version ${SIGNATURE_VERSION}): it has none to compare`,
  );
}
