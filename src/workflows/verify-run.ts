import type { AgentBuild } from '../agent/index.js';
import type { ReplayDivergence, Verdict } from '../analysis/index.js';
import { judgeVerification, outcomeHistogram } from '../analysis/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { WorldFactory } from '../world/index.js';
import type { Engine, ReexecutionResult, ReplayResult, RunView } from '../engine/index.js';

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
      /** Opens the world of each re-execution: the candidate's are runs 0..K-1, the control's K..2K-1. */
      readonly world: WorldFactory;
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
 * a live world, K times each, each in a fresh world. Every run is stored
 * and labelled with its mode, under the recording.
 */
export async function verifyRun(engine: Engine, options: VerifyOptions): Promise<VerifyResult> {
  const repeats = options.repeats ?? 1;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new ForkpointError('USAGE', `repeats must be a positive whole number, got ${repeats}`);
  if (options.mode === 'reexecution') {
    // Both arms are checked before either runs: a policy one build cannot take writes nothing.
    for (const agent of [options.candidate, options.baseline])
      resolveSideEffectPolicy(options.sideEffects, agent.tools);
  }
  const recording = await engine.getRunSummary(options.runId);
  const scenario = options.scenario === undefined ? {} : { scenario: options.scenario };
  let runOnce: (agent: AgentBuild, run: number) => Promise<ReplayResult | ReexecutionResult>;
  if (options.mode === 'replay') {
    const cassette = await engine.cassette(recording.runId);
    runOnce = (agent) => engine.replay({ agent, cassette, mode: 'strict', ...scenario });
  } else {
    const { world, sideEffects } = options;
    runOnce = (agent, run) =>
      engine.reexecute({
        sourceRunId: recording.runId,
        agent,
        world: world(run),
        ...(sideEffects === undefined ? {} : { sideEffects }),
        ...scenario,
      });
  }
  const arm = async (agent: AgentBuild, first: number): Promise<(ReplayResult | ReexecutionResult)[]> => {
    const runs: (ReplayResult | ReexecutionResult)[] = [];
    for (let i = 0; i < repeats; i++) runs.push(await runOnce(agent, first + i));
    return runs;
  };
  const candidate = await arm(options.candidate, 0);
  const control = await arm(options.baseline, repeats);
  const divergence =
    candidate.map((run) => (run.mode === 'reexecution' ? null : run.divergence)).find((found) => found !== null) ??
    null;
  const judgement = judgeVerification({ recording, candidate, control, candidateDivergence: divergence });
  const describe = (agent: AgentBuild, runs: RunView[]): VerificationArm => ({
    build: agent.build,
    runs: runs.map((run) => run.runId),
    outcomes: outcomeHistogram(runs),
  });
  return {
    ...judgement,
    mode: options.mode === 'replay' ? 'replay:strict' : 'reexecution',
    runId: recording.runId,
    recording: { status: recording.status, outcome: recording.outcome, error: recording.error },
    repeats,
    candidate: describe(options.candidate, candidate),
    control: describe(options.baseline, control),
    divergence,
  };
}
