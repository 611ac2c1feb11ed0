import type { AgentBuild } from '../agent/index.js';
import type { CountedRun, ReplayDivergence } from '../analysis/index.js';
import { outcomeKey } from '../analysis/index.js';
import type { Cassette } from '../cassette/index.js';
import { isForkpointError } from '../errors/index.js';
import { stableJson } from '../json/index.js';
import type { Engine } from '../engine/index.js';
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
  /** The run id the replay ran under; the run is in the store when the suite keeps its runs. */
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
export type SuiteInput = { readonly name: string } & (
  { readonly cassette: Cassette } | { readonly problem: { code: string; message: string } }
);

/**
 * Cassettes a suite reads one at a time, just before each replay, and lets go
 * of after it: a suite of thousands holds one cassette at a time instead of
 * all of them.
 *
 * @example
 * ```ts
 * const files = findCassetteFiles('test/fixtures/cassettes');
 * await runSuite(engine, { cassettes: { names: files, load: readCassetteFile }, agent: baseline });
 * ```
 */
export interface SuiteSource {
  /** The cassettes' names (file paths, say), in the order they are replayed. */
  readonly names: readonly string[];
  /** Reads one cassette, once, when its turn comes. A `ForkpointError` makes its case `invalid`. */
  load(name: string): Cassette | Promise<Cassette>;
}

/** What a suite replays, with which build, and how. */
export interface SuiteOptions {
  /** The cassettes, or a {@link SuiteSource} that reads them one at a time. */
  readonly cassettes: readonly SuiteInput[] | SuiteSource;
  /** The build every cassette is replayed with. */
  readonly agent: AgentBuild;
  /** Told after every case: how many are done, of how many. */
  readonly onCase?: (done: number, total: number) => void;
  /**
   * Whether each replay is written to the store, as `replay` writes it
   * (default true). A suite whose runs nobody will read (the CLI's, without
   * `--db`) replays without writing, so that its memory does not grow with
   * the number of cassettes; its cases still name the run ids the replays ran under.
   */
  readonly keepRuns?: boolean;
}

/**
 * Replays every cassette strictly with one build and sorts the results into
 * passed, failed (the outcome changed from the recording's) and diverged.
 * A recorded failure that still fails the same way passes: the suite guards
 * behaviour, it does not grade it. A case keeps what the replay showed, never
 * its cassette.
 */
export async function runSuite(engine: Engine, options: SuiteOptions): Promise<SuiteResult> {
  const { cassettes: inputs, agent, onCase, keepRuns = true } = options;
  // Each cassette is read inside the loop and dropped with it: only the case outlives its turn.
  const turns: ReadonlyArray<() => Promise<SuiteInput>> = isSource(inputs)
    ? inputs.names.map((name) => () => loadInput(inputs, name))
    : inputs.map((input) => () => Promise.resolve(input));
  const cases: SuiteCase[] = [];
  for (const next of turns) {
    cases.push(await runCase(engine, await next(), agent, keepRuns));
    onCase?.(cases.length, turns.length);
    // A turn of the event loop between cases: V8 runs its collector's tasks there, which a chain of awaits
    // never reaches, and without them a suite of thousands peaked about 25 MiB higher (garbage, not cases).
    await new Promise((resolve) => setImmediate(resolve));
  }
  const count = (status: SuiteCase['status']) => cases.filter((item) => item.status === status).length;
  return {
    mode: 'suite',
    build: agent.build,
    passed: count('passed'),
    failed: count('failed'),
    diverged: count('diverged'),
    invalid: count('invalid'),
    cases,
  };
}

function isSource(inputs: readonly SuiteInput[] | SuiteSource): inputs is SuiteSource {
  return !Array.isArray(inputs);
}

async function loadInput(source: SuiteSource, name: string): Promise<SuiteInput> {
  try {
    return { name, cassette: await source.load(name) };
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    return { name, problem: { code: error.code, message: error.message } };
  }
}

async function runCase(engine: Engine, input: SuiteInput, agent: AgentBuild, keep: boolean): Promise<SuiteCase> {
  const started = performance.now();
  const none = { recorded: null, replayed: null, runId: null, divergence: null };
  if ('problem' in input)
    return suiteCase(input.name, { ...none, replay: null, status: 'invalid', error: input.problem, ms: 0 });
  const { cassette } = input;
  const recorded = {
    status: cassette.source.status,
    outcome: cassette.source.outcome,
    error: cassette.source.error,
  } as CountedRun;
  const mode = cassette.canonicalForm === STRUCTURAL_FORM ? 'structural' : 'strict';
  try {
    const replay = await engine.replay({ agent, cassette, mode, cassetteFile: input.name, keep });
    // A shaped recording has no outcome to compare: a structural case passes when the trajectory held.
    const status =
      replay.status === 'diverged'
        ? 'diverged'
        : mode === 'structural' || sameEnding(recorded, replay)
          ? 'passed'
          : 'failed';
    return suiteCase(input.name, {
      replay: mode,
      status,
      recorded: outcomeKey(recorded),
      replayed: outcomeKey(replay),
      runId: replay.runId,
      divergence: replay.divergence,
      error: null,
      ms: performance.now() - started,
    });
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    return suiteCase(input.name, {
      ...none,
      replay: mode,
      status: 'invalid',
      error: { code: error.code, message: error.message },
      ms: performance.now() - started,
    });
  }
}

// Every case is made by this one literal, so all of them share one hidden class. Built as a spread of a
// base object and then filled in, each case got a map and descriptor array of its own in V8: about 350
// bytes more per case for as long as the suite holds its cases. The key order is the JSON output's.
function suiteCase(name: string, fields: Omit<SuiteCase, 'name'>): SuiteCase {
  return {
    name,
    recorded: fields.recorded,
    replayed: fields.replayed,
    runId: fields.runId,
    divergence: fields.divergence,
    replay: fields.replay,
    status: fields.status,
    error: fields.error,
    ms: fields.ms,
  };
}

// Same decision and payload, or the same failure: the outcome the recording had.
function sameEnding(recorded: CountedRun, replayed: CountedRun): boolean {
  return outcomeKey(recorded) === outcomeKey(replayed) && stableJson(recorded.outcome) === stableJson(replayed.outcome);
}
