import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { WorldFactory } from '../world/index.js';
import type { Engine, ReexecutionResult, ReplayResult } from '../engine/index.js';
import { requireDriven } from '../engine/index.js';
import type { VerifyResult } from './verification-result.js';
import { verificationOf } from './verification-result.js';

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
  // Both arms are builds of a driven agent: a wrapped loop's recording is refused before either runs.
  requireDriven(recording, 'verify');
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
  return verificationOf({
    recording,
    mode: options.mode === 'replay' ? 'replay:strict' : 'reexecution',
    repeats,
    candidate: { build: options.candidate.build, runs: candidate },
    control: { build: options.baseline.build, runs: control },
  });
}
