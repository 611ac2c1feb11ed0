import type { AgentBuild } from '../agent/index.js';
import type { DivergenceRow, SourcedDivergence, SourcedStep } from '../analysis/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import { classifyDivergence, tallyDivergences } from '../analysis/index.js';
import type { Cassette } from '../cassette/index.js';
import type { ErrorCode } from '../errors/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import type { RunStatus } from '../vocabulary/index.js';
import type { WorldFactory } from '../world/index.js';
import type { Engine } from '../engine/index.js';
import type { RunSummary } from '../read/index.js';
import type { ReexecutionResult } from '../modes/index.js';

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

/** One re-execution, where it first left its recording, and why. */
export interface ReportedReexecution extends SourcedDivergence {
  /** The recorded run. */
  readonly recordedRunId: string;
  readonly input: JsonObject;
  /** The re-execution, stored with mode `reexecution`. */
  readonly runId: string;
  /** Which of the run's re-executions, from 1. */
  readonly repeat: number;
  /** What its world said of itself. */
  readonly worldAt: string | null;
  readonly seed: number | null;
  readonly recordedBuild: { readonly build: string; readonly codeHash: string };
  readonly build: { readonly build: string; readonly codeHash: string };
  readonly status: RunStatus;
}

/** A recorded run the report could not re-execute, and why. */
export interface SkippedRun {
  readonly runId: string;
  readonly code: ErrorCode;
  readonly reason: string;
  /** How many of its re-executions were not made. */
  readonly reexecutions: number;
}

/** The first-divergence table over a set of re-executions. */
export interface DivergenceReport {
  /** The mode of every run the report made. */
  readonly mode: 'reexecution';
  readonly repeats: number;
  /** How many recorded runs were asked for. */
  readonly runs: number;
  readonly skipped: readonly SkippedRun[];
  /** Classified re-executions: runs × repeats minus the skipped ones. */
  readonly total: number;
  /** One row per source, each with its re-executions. */
  readonly rows: readonly DivergenceRow<ReportedReexecution>[];
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
  const duplicate = options.runIds.find((runId, i) => options.runIds.indexOf(runId) !== i);
  if (duplicate !== undefined) throw new ForkpointError('USAGE', `run ${duplicate} is named twice; name each run once`);
  const runs: RunSummary[] = [];
  for (const runId of options.runIds) runs.push(await engine.getRunSummary(runId));
  const plans: Array<{ run: RunSummary; plan: ReexecutionPlan }> = [];
  for (const run of runs) plans.push({ run, plan: await options.plan(run) });
  for (const { plan } of plans) resolveSideEffectPolicy(options.sideEffects, plan.agent.tools);

  const reported: ReportedReexecution[] = [];
  const skipped: SkippedRun[] = [];
  const planned = runs.length * repeats;
  let done = 0;
  for (const [i, { run, plan }] of plans.entries()) {
    const unfinished = run.status === 'running' || run.status === 'interrupted';
    if (unfinished) {
      skipped.push({
        runId: run.runId,
        code: 'INPUT_INVALID',
        reason: `the recording is ${run.status}: it has no end to compare with`,
        reexecutions: repeats,
      });
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
      const divergence = firewalled(
        classifyDivergence(sideOf(recording), sideOf(await engine.cassette(result.runId, 'full'))),
        result,
      );
      reported.push({
        recordedRunId: run.runId,
        input: run.input,
        runId: result.runId,
        repeat: repeat + 1,
        worldAt: result.worldAt,
        seed: result.seed,
        recordedBuild: { build: run.agent.build, codeHash: run.agent.codeHash },
        build: { build: result.agent.build, codeHash: result.agent.codeHash },
        status: result.status,
        ...divergence,
      });
      options.onProgress?.(++done, planned);
    }
  }
  const { rows, total } = tallyDivergences(reported);
  return { mode: 'reexecution', repeats, runs: runs.length, skipped, total, rows };
}

/**
 * What the firewall made of a divergence: a re-execution it stopped before the
 * run had left its recording diverges for want of a call, not for a cause; an
 * answer a simulator gave is the simulator's, not the world's.
 */
function firewalled(divergence: SourcedDivergence, result: ReexecutionResult): SourcedDivergence {
  const blockedAt = result.error?.code === 'SIDE_EFFECT_BLOCKED' ? result.error.step : null;
  if (blockedAt !== null && (divergence.step === null || divergence.step >= blockedAt)) {
    return {
      ...divergence,
      source: 'blocked',
      step: blockedAt,
      on: null,
      reason: `the side-effect firewall stopped it at step ${blockedAt} while it still followed the recording`,
      diff: [],
    };
  }
  const step = divergence.step === null ? undefined : result.steps[divergence.step - 1];
  if (divergence.source === 'tool-response' && step?.provenance === 'simulated') {
    return {
      ...divergence,
      source: 'simulated',
      reason: `same request; the simulator of ${step.kind} answered where the recording holds the real answer`,
    };
  }
  return divergence;
}

function sideOf(cassette: Cassette): { codeHash: string; steps: SourcedStep[]; messages: Cassette['messages'] } {
  const steps = cassette.entries.map((entry) => ({ ...entry, requestHash: entry.requestHash, provenance: 'recorded' }));
  return { codeHash: cassette.agent.codeHash, steps, messages: cassette.messages };
}
