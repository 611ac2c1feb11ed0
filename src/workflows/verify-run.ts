import type { AgentBuild } from '../agent/index.js';
import type { ReplayDivergence, Verdict } from '../analysis/index.js';
import { judgeVerification, outcomeHistogram } from '../analysis/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { World } from '../world/index.js';
import type { EngineDeps } from '../driver/index.js';
import { ownerCheck } from '../driver/index.js';
import { fullCassetteOf } from '../read/index.js';
import { requireRun, summarizeRun } from '../read/index.js';
import { reexecuteRun } from '../modes/index.js';
import { replayRun } from '../modes/index.js';
import type { RunView } from '../read/index.js';
import { assertWorldDate } from '../driver/index.js';
import type { ReexecutionResult } from '../modes/index.js';
import type { ReplayResult } from '../modes/index.js';

/** What `verify` needs. */
export type VerifyOptions = {
  readonly runId: string;
  /** The build that should fix the recorded failure. */
  readonly candidate: AgentBuild;
  /** The control arm: the build that failed. */
  readonly baseline: AgentBuild;
  /** How many runs per arm (default 1). */
  readonly repeats?: number;
  readonly scenario?: string;
} & (
  | { readonly mode: 'replay' }
  | {
      readonly mode: 'reexecution';
      readonly at: string;
      readonly world: (seed: number) => World;
      /** What both arms do with calls to tools that are not read-only (default `refuse`; see `ForkOptions`). */
      readonly sideEffects?: SideEffectOption;
    }
);

/** One arm of a verification: its build, its stored runs, and how they ended. */
export interface VerificationArm {
  readonly build: string;
  readonly runs: readonly string[];
  readonly outcomes: Readonly<Record<string, number>>;
}

/** A verification's result. */
export interface VerifyResult {
  readonly verdict: Verdict;
  readonly reason: string;
  /** The mode of every arm's runs. */
  readonly mode: 'replay:strict' | 'reexecution';
  readonly runId: string;
  readonly recording: {
    readonly status: string;
    readonly outcome: RunView['outcome'];
    readonly error: RunView['error'];
  };
  readonly repeats: number;
  readonly candidate: VerificationArm;
  readonly control: VerificationArm;
  /** The candidate's first divergence in strict replay (its replay's `divergence`): the finding of `candidate-diverged`. */
  readonly divergence: ReplayDivergence | null;
}

/**
 * Runs a candidate arm and a control arm over a recorded failure and judges
 * them: strict replays over the recording (default), or re-executions against
 * the world at a date, K times each with different seeds. Every run is stored
 * and labelled with its mode, under the recording.
 */
export async function verifyRun(deps: EngineDeps, options: VerifyOptions): Promise<VerifyResult> {
  const repeats = options.repeats ?? 1;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new ForkpointError('USAGE', `repeats must be a positive whole number, got ${repeats}`);
  if (options.mode === 'reexecution') {
    assertWorldDate(options.at);
    // Both arms are checked before either runs: a policy one build cannot take writes nothing.
    for (const agent of [options.candidate, options.baseline])
      resolveSideEffectPolicy(options.sideEffects, agent.tools);
  }
  const recording = await requireRun(deps.store, options.runId);
  const cassette =
    options.mode === 'replay' ? await fullCassetteOf(deps.store, recording, deps.clock(), 'replay') : undefined;

  const arm = async (agent: AgentBuild): Promise<(ReplayResult | ReexecutionResult)[]> => {
    const runs: (ReplayResult | ReexecutionResult)[] = [];
    for (let i = 0; i < repeats; i++) {
      runs.push(
        options.mode === 'replay'
          ? await replayRun(deps, {
              agent,
              cassette: cassette!,
              mode: 'strict',
              ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
            })
          : await reexecuteRun(deps, {
              sourceRunId: recording.runId,
              agent,
              at: options.at,
              world: options.world,
              ...(options.sideEffects === undefined ? {} : { sideEffects: options.sideEffects }),
              ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
            }),
      );
    }
    return runs;
  };
  const candidate = await arm(options.candidate);
  const control = await arm(options.baseline);
  const divergence =
    candidate.map((run) => (run.mode === 'reexecution' ? null : run.divergence)).find((found) => found !== null) ??
    null;
  const recorded = summarizeRun(recording, ownerCheck(deps));
  const judgement = judgeVerification({ recording: recorded, candidate, control, candidateDivergence: divergence });
  const describe = (agent: AgentBuild, runs: RunView[]): VerificationArm => ({
    build: agent.build,
    runs: runs.map((run) => run.runId),
    outcomes: outcomeHistogram(runs),
  });
  return {
    ...judgement,
    mode: options.mode === 'replay' ? 'replay:strict' : 'reexecution',
    runId: recording.runId,
    recording: { status: recorded.status, outcome: recorded.outcome, error: recorded.error },
    repeats,
    candidate: describe(options.candidate, candidate),
    control: describe(options.baseline, control),
    divergence,
  };
}
