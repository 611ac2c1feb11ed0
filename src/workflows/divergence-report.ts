import type { AgentBuild } from '../agent/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { Cassette } from '../cassette/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { WorldFactory } from '../world/index.js';
import type { Engine } from '../engine/index.js';
import { requireDriven } from '../engine/index.js';
import type { RunSummary } from '../read/index.js';
import type { DivergenceReport, ReportedReexecution, SkippedRun } from './reexecution-divergence.js';
import {
  classifyReexecution,
  divergenceReportOf,
  reportedReexecution,
  requireDistinctRuns,
  unfinishedSkip,
} from './reexecution-divergence.js';

/** How one recorded run is re-executed: the build to run and the world it runs against. */
export interface ReexecutionPlan {
  readonly agent: AgentBuild;
  /**
   * Opens the world of each re-execution. `run` counts the report's
   * re-executions: the j-th of the i-th run is `i * repeats + j`.
   */
  readonly world: WorldFactory;
  /** The scenario directory stored with each re-execution. */
  readonly scenario?: string;
}

/** What {@link divergenceReport} needs. */
export interface DivergenceReportOptions {
  /** The recorded runs to re-execute, in the order the report lists them. */
  readonly runIds: readonly string[];
  /** Re-executions per run, each in a fresh world (default 1). */
  readonly repeats?: number;
  /**
   * The build and world of each run. Called for every run before anything is
   * re-executed, so a plan that throws (an unknown build) writes nothing.
   */
  readonly plan: (run: RunSummary) => ReexecutionPlan | Promise<ReexecutionPlan>;
  /** Told after each re-execution. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * What the re-executions do with calls to tools that are not read-only
   * (default `refuse`: a re-execution stopped by the firewall while still on
   * its recording is counted `blocked`).
   */
  readonly sideEffects?: SideEffectOption;
}

/**
 * Re-executes each recorded run `repeats` times against a live world
 * (mode `reexecution`) and finds, for each re-execution, the first step where
 * it left the recording and what caused it: the chapter's table of where
 * divergence comes from. A run whose full tier cannot be read is skipped with
 * the reason; bad input (an unknown run, a world's bad date, repeats below 1) raises
 * before any run is written.
 *
 * @example
 * ```ts
 * const report = await divergenceReport(engine, {
 *   runIds: ['9b40c1d5'], repeats: 3,
 *   plan: () => ({ agent: baseline, world: (run) => openClaimsWorld({ at: '2026-03-09', seed: 7 + run, latencyMs: 0 }) }),
 * });
 * console.log(report.rows.map((row) => `${row.source} ${row.count}`));
 * ```
 */
export async function divergenceReport(engine: Engine, options: DivergenceReportOptions): Promise<DivergenceReport> {
  const repeats = options.repeats ?? 1;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new ForkpointError('USAGE', `repeats must be a positive whole number, got ${repeats}`);
  requireDistinctRuns(options.runIds);
  const runs: RunSummary[] = [];
  for (const runId of options.runIds) {
    const run = await engine.getRunSummary(runId);
    // A wrapped loop's recording only that loop can run again: refused before any run is re-executed.
    requireDriven(run, 're-execute');
    runs.push(run);
  }
  const plans: Array<{ run: RunSummary; plan: ReexecutionPlan }> = [];
  for (const run of runs) plans.push({ run, plan: await options.plan(run) });
  for (const { plan } of plans) resolveSideEffectPolicy(options.sideEffects, plan.agent.tools);

  const reported: ReportedReexecution[] = [];
  const skipped: SkippedRun[] = [];
  const planned = runs.length * repeats;
  let done = 0;
  for (const [i, { run, plan }] of plans.entries()) {
    const unfinished = unfinishedSkip(run, repeats);
    if (unfinished !== null) {
      skipped.push(unfinished);
      continue;
    }
    // Read once the first re-execution has shown the full tier is there; the recording's side of every comparison.
    let recording: Cassette | undefined;
    for (let repeat = 0; repeat < repeats; repeat++) {
      let result;
      try {
        result = await engine.reexecute({
          sourceRunId: run.runId,
          agent: plan.agent,
          world: plan.world(i * repeats + repeat),
          ...(options.sideEffects === undefined ? {} : { sideEffects: options.sideEffects }),
          ...(plan.scenario === undefined ? {} : { scenario: plan.scenario }),
        });
        recording ??= await engine.cassette(run.runId, 'full');
      } catch (error) {
        // An expired full tier skips the run; it can also expire between two repeats of a long report.
        if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
        skipped.push({ runId: run.runId, code: error.code, reason: error.message, reexecutions: repeats - repeat });
        break;
      }
      const divergence = classifyReexecution(recording, await engine.cassette(result.runId, 'full'), result);
      reported.push(reportedReexecution(run, result, repeat + 1, divergence));
      options.onProgress?.(++done, planned);
    }
  }
  return divergenceReportOf({ repeats, runs: runs.length }, skipped, reported);
}
