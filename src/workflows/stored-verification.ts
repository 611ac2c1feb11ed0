import { hasEnded } from '../vocabulary/index.js';
import type { Engine, Lineage, RunSummary } from '../engine/index.js';
import { assertRunId, assertWorldDate } from '../engine/index.js';
import { ForkpointError } from '../errors/index.js';
import type { VerifyResult } from './verification-result.js';
import { verificationOf } from './verification-result.js';

/** Which stored verification to read: `verify`'s arguments, without running anything. */
export interface StoredVerificationQuery {
  /** The recording both arms ran from. */
  readonly runId: string;
  readonly candidate: string;
  readonly baseline: string;
  /** `replay`: the arms are strict replays of the recording; `reexecution`: its re-executions. */
  readonly mode: 'replay' | 'reexecution';
  /** With `reexecution`: the world's date both arms ran against; needed once arms ran against several. */
  readonly at?: string;
}

/** A verification a recording has stored: two builds with runs in one mode (and, re-executed, one world). */
export interface StoredVerificationRef {
  readonly runId: string;
  readonly mode: 'replay' | 'reexecution';
  readonly candidate: string;
  readonly baseline: string;
  /** The world's date of re-executed arms; null for replays. */
  readonly at: string | null;
  /** How many runs each arm holds. */
  readonly runs: { readonly candidate: number; readonly control: number };
}

const ARM_MODE = { replay: 'replay:strict', reexecution: 'reexecution' } as const;

/**
 * The verification of a recording read from the store, the same result as
 * `verify --json`, judged by the same code (see `verificationOf`) over the
 * runs `verify` stored under the recording, and writing nothing. An arm is
 * every finished run made from the recording in the mode asked for with its
 * build, oldest first: of the build's newest code, so that a changed build is
 * not judged by its older runs. `repeats` is the larger arm's length.
 *
 * Raises `RUN_NOT_FOUND` for an unknown recording or an arm with no stored run
 * (saying what to run), `USAGE` for one build as both arms or re-executions
 * against several worlds without `at`, and `CASSETTE_EXPIRED` once the
 * runs' full tiers are gone (their outcomes are kept only as shapes).
 *
 * @example
 * ```ts
 * const result = await storedVerification(engine, { runId: '9b40c1d5', candidate: 'patched', baseline: 'baseline', mode: 'replay' });
 * console.log(result.verdict, result.reason);
 * ```
 */
export async function storedVerification(engine: Engine, query: StoredVerificationQuery): Promise<VerifyResult> {
  assertRunId(query.runId);
  if (query.at !== undefined) {
    assertWorldDate(query.at);
    if (query.mode !== 'reexecution')
      throw new ForkpointError(
        'USAGE',
        'a world date only applies to re-executed arms: a replay ran over the recording',
      );
  }
  if (query.candidate === query.baseline)
    throw new ForkpointError(
      'USAGE',
      `build ${query.candidate} cannot be both arms: the control arm is the build that failed, the candidate the fix`,
    );
  const lineage = await engine.lineage(query.runId);
  const recording = lineage.tree.run;
  const made = runsOf(lineage, query.mode);
  const candidate = armRuns(made, query.candidate, query.at);
  const control = armRuns(made, query.baseline, query.at);
  if (candidate.length === 0) throw noArm(query, 'candidate', query.candidate);
  if (control.length === 0) throw noArm(query, 'control', query.baseline);
  if (query.mode === 'reexecution' && query.at === undefined) {
    const worlds = [...new Set([...candidate, ...control].map((run) => run.worldAt ?? 'unknown'))];
    if (worlds.length > 1)
      throw new ForkpointError(
        'USAGE',
        `the arms of run ${recording.runId} were re-executed against the worlds of ${worlds.sort().join(', ')}: name one of those dates`,
      );
  }
  const expired = [recording, ...candidate, ...control].find((run) => run.retention.expired);
  if (expired !== undefined)
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `cannot judge the verification of run ${recording.runId}: the full tier of run ${expired.runId} expired at ${expired.retention.expiresAt ?? '?'}, and its outcome is kept only as a shape`,
      { details: { runId: expired.runId } },
    );
  return verificationOf({
    recording,
    mode: ARM_MODE[query.mode],
    repeats: Math.max(candidate.length, control.length),
    candidate: { build: query.candidate, runs: candidate },
    control: { build: query.baseline, runs: control },
  });
}

/**
 * The verifications a recording has stored, for a page to link to: in each
 * mode (and, re-executed, each world's date), its own build as the control
 * arm against every other build with runs there as the candidate.
 */
export async function storedVerifications(engine: Engine, runId: string): Promise<StoredVerificationRef[]> {
  assertRunId(runId);
  return verificationsIn(await engine.lineage(runId));
}

/** {@link storedVerifications} over a lineage already read: the recording is its root. */
export function verificationsIn(lineage: Lineage): StoredVerificationRef[] {
  const { runId, agent } = lineage.tree.run;
  const baseline = agent.build;
  const refs: StoredVerificationRef[] = [];
  for (const mode of ['replay', 'reexecution'] as const) {
    const made = runsOf(lineage, mode);
    const worlds = mode === 'replay' ? [undefined] : [...new Set(made.map((run) => run.worldAt ?? undefined))];
    for (const at of worlds) {
      const control = armRuns(made, baseline, at).length;
      if (control === 0) continue;
      const candidates = [...new Set(made.map((run) => run.agent.build))].filter((build) => build !== baseline);
      for (const candidate of candidates.sort()) {
        const runs = armRuns(made, candidate, at).length;
        if (runs > 0)
          refs.push({ runId, mode, candidate, baseline, at: at ?? null, runs: { candidate: runs, control } });
      }
    }
  }
  return refs;
}

/** The finished runs made from the lineage's root in a verification's mode, oldest first. */
function runsOf(lineage: Lineage, mode: StoredVerificationQuery['mode']): RunSummary[] {
  const { runId } = lineage.tree.run;
  return lineage.tree.children
    .map((child) => child.run)
    .filter((run) => run.sourceRunId === runId && run.parent === null && run.mode === ARM_MODE[mode])
    .filter((run) => hasEnded(run.status));
}

// One version of the build: the code of its newest run, since older code is not the build being verified.
function armRuns(made: readonly RunSummary[], build: string, at: string | undefined): RunSummary[] {
  const mine = made.filter((run) => run.agent.build === build && (at === undefined || run.worldAt === at));
  const newest = mine.at(-1)?.agent.codeHash;
  return mine.filter((run) => run.agent.codeHash === newest);
}

function noArm(query: StoredVerificationQuery, arm: 'candidate' | 'control', build: string): ForkpointError {
  const runs = query.mode === 'replay' ? 'strict replay' : 're-execution';
  const world = query.at === undefined ? '' : ` against the world of ${query.at}`;
  return new ForkpointError(
    'RUN_NOT_FOUND',
    `no finished ${runs} of run ${query.runId} with build ${build}${world} is stored: the ${arm} arm has no run to judge`,
    {
      details: {
        runId: query.runId,
        remedy: {
          kind: 'run-verification',
          runId: query.runId,
          candidate: query.candidate,
          baseline: query.baseline,
          mode: query.mode,
          ...(query.at === undefined ? {} : { at: query.at }),
        },
      },
    },
  );
}
