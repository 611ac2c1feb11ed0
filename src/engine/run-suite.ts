import type { AgentBuild } from '../agent/index.js';
import type { CountedRun, ReplayDivergence } from '../analysis/index.js';
import { outcomeKey } from '../analysis/index.js';
import type { Cassette } from '../cassette/index.js';
import { isForkpointError } from '../errors/index.js';
import { canonicalJson } from '../json/index.js';
import type { EngineDeps } from './engine-deps.js';
import { replayRun } from './replay-run.js';
import { STRUCTURAL_FORM } from '../tiers/index.js';

/** One cassette of a suite and what its strict replay showed. */
export interface SuiteCase {
  /** The cassette's name, as the caller identifies it (a file path). */
  readonly name: string;
  /**
   * `passed`: the replay ended as the recording did; `failed`: the run's own
   * outcome changed; `diverged`: it asked something the cassette cannot
   * answer; `invalid`: the cassette could not be used.
   */
  readonly status: 'passed' | 'failed' | 'diverged' | 'invalid';
  /** A structural cassette is replayed by shape, and only its trajectory is compared. */
  readonly replay: 'strict' | 'structural' | null;
  readonly recorded: string | null;
  readonly replayed: string | null;
  readonly runId: string | null;
  /** The replay's first divergence (its `ReplayResult.divergence`), null unless `diverged`. */
  readonly divergence: ReplayDivergence | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly ms: number;
}

/** A suite's result. */
export interface SuiteResult {
  readonly mode: 'suite';
  readonly build: string;
  readonly passed: number;
  readonly failed: number;
  readonly diverged: number;
  readonly invalid: number;
  readonly cases: readonly SuiteCase[];
}

/** A cassette to replay, or the reason it cannot be. */
export type SuiteInput = { readonly name: string } & ({ readonly cassette: Cassette } | { readonly problem: { code: string; message: string } });

/**
 * Replays every cassette strictly with one build and sorts the results into
 * passed, failed (the outcome changed from the recording's) and diverged.
 * A recorded failure that still fails the same way passes: the suite guards
 * behaviour, it does not grade it.
 */
export async function runSuite(
  deps: EngineDeps,
  inputs: readonly SuiteInput[],
  agent: AgentBuild,
  onCase?: (done: number, total: number) => void,
): Promise<SuiteResult> {
  const cases: SuiteCase[] = [];
  for (const input of inputs) {
    cases.push(await runCase(deps, input, agent));
    onCase?.(cases.length, inputs.length);
  }
  const count = (status: SuiteCase['status']) => cases.filter((item) => item.status === status).length;
  return { mode: 'suite', build: agent.build, passed: count('passed'), failed: count('failed'), diverged: count('diverged'), invalid: count('invalid'), cases };
}

async function runCase(deps: EngineDeps, input: SuiteInput, agent: AgentBuild): Promise<SuiteCase> {
  const started = performance.now();
  const base = { name: input.name, recorded: null, replayed: null, runId: null, divergence: null };
  if ('problem' in input) return { ...base, replay: null, status: 'invalid', error: input.problem, ms: 0 };
  const { cassette } = input;
  const recorded = { status: cassette.source.status, outcome: cassette.source.outcome, error: cassette.source.error } as CountedRun;
  const mode = cassette.canonicalForm === STRUCTURAL_FORM ? 'structural' : 'strict';
  try {
    const replay = await replayRun(deps, { agent, cassette, mode, cassetteFile: input.name });
    // A shaped recording has no outcome to compare: a structural case passes when the trajectory held.
    const status = replay.status === 'diverged' ? 'diverged' : mode === 'structural' || sameEnding(recorded, replay) ? 'passed' : 'failed';
    return {
      ...base,
      replay: mode,
      status,
      recorded: outcomeKey(recorded),
      replayed: outcomeKey(replay),
      runId: replay.runId,
      divergence: replay.divergence,
      error: null,
      ms: performance.now() - started,
    };
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    return { ...base, replay: mode, status: 'invalid', error: { code: error.code, message: error.message }, ms: performance.now() - started };
  }
}

// Same decision and payload, or the same failure: the outcome the recording had.
function sameEnding(recorded: CountedRun, replayed: CountedRun): boolean {
  return outcomeKey(recorded) === outcomeKey(replayed) && canonicalJson(recorded.outcome) === canonicalJson(replayed.outcome);
}
