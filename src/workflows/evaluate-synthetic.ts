import type { AgentBuild } from '../agent/index.js';
import type { SyntheticCase, SyntheticSupport, SyntheticVerdict } from '../scenario/index.js';
import type { Engine } from '../engine/index.js';

/** One synthetic case's run and score. */
export interface SyntheticCaseResult {
  readonly id: string;
  readonly file: string;
  readonly paths: readonly string[];
  readonly narrative: string;
  readonly runId: string;
  readonly verdict: SyntheticVerdict;
}

/** One build scored over a synthetic suite. */
export interface SyntheticEvaluation {
  readonly build: string;
  readonly cases: readonly SyntheticCaseResult[];
  readonly passed: number;
  readonly failed: number;
  /** passed / cases, from 0 to 1. */
  readonly passRate: number;
}

/** What {@link evaluateSynthetic} needs. */
export interface EvaluateOptions {
  readonly support: SyntheticSupport;
  readonly cases: readonly SyntheticCase[];
  readonly agent: AgentBuild;
  /** The scenario directory, stored with each run. */
  readonly scenario: string;
  /** Every case runs with this seed, so that two builds meet the same sampling. */
  readonly seed: number;
  readonly onCase?: (done: number, total: number) => void;
}

/**
 * Records every synthetic case with one build, each in its own world, and
 * scores it against its expected outcome. The runs are kept in the
 * `synthetic` tier: they hold no customer data and never expire.
 */
export async function evaluateSynthetic(engine: Engine, options: EvaluateOptions): Promise<SyntheticEvaluation> {
  const results: SyntheticCaseResult[] = [];
  for (const testCase of options.cases) {
    const run = await engine.record({
      agent: options.agent,
      world: options.support.openWorld(testCase, { at: testCase.at, seed: options.seed, latencyMs: 0 }),
      input: testCase.input,
      scenario: options.scenario,
      tier: 'synthetic',
    });
    const verdict = options.support.score(testCase, {
      status: run.status,
      outcome: run.outcome,
      error: run.error === null ? null : { code: run.error.code, message: run.error.message },
    });
    results.push({
      id: testCase.id,
      file: testCase.file,
      paths: testCase.paths,
      narrative: testCase.narrative,
      runId: run.runId,
      verdict,
    });
    options.onCase?.(results.length, options.cases.length);
  }
  const passed = results.filter((result) => result.verdict.pass).length;
  return {
    build: options.agent.build,
    cases: results,
    passed,
    failed: results.length - passed,
    passRate: results.length === 0 ? 0 : passed / results.length,
  };
}

/** A case two builds handled differently. */
export interface SyntheticDifference {
  readonly id: string;
  readonly file: string;
  readonly expected: string;
  /** What each build did, in the scorer's words. */
  readonly reference: { readonly build: string; readonly actual: string; readonly pass: boolean };
  readonly candidate: { readonly build: string; readonly actual: string; readonly pass: boolean };
}

/** The cases where two evaluations of the same suite differ, in suite order. */
export function differencesBetween(
  reference: SyntheticEvaluation,
  candidate: SyntheticEvaluation,
): SyntheticDifference[] {
  const byId = new Map(reference.cases.map((result) => [result.id, result]));
  return candidate.cases.flatMap((result) => {
    const other = byId.get(result.id);
    if (
      other === undefined ||
      (other.verdict.actual === result.verdict.actual && other.verdict.pass === result.verdict.pass)
    )
      return [];
    return [
      {
        id: result.id,
        file: result.file,
        expected: result.verdict.expected,
        reference: { build: reference.build, actual: other.verdict.actual, pass: other.verdict.pass },
        candidate: { build: candidate.build, actual: result.verdict.actual, pass: result.verdict.pass },
      },
    ];
  });
}
