import type { RunComparison } from '../../analysis/index.js';
import { compareRuns } from '../../analysis/index.js';
import type { RestoredCheckpoint } from '../../checkpoint/index.js';
import type { Engine, Lineage, RunRetention, RunSummary, StepView } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import type { RunMode } from '../../vocabulary/index.js';
import type { RunDocument } from '../pages/run-page.js';
import type { RunWords } from '../pages/run-words.js';

/** What `show <run> --step K --json` prints: the checkpoint after step K. */
export interface CheckpointDocument {
  readonly mode: RunMode;
  readonly runId: string;
  readonly step: number;
  readonly state: JsonValue;
  readonly context: JsonObject;
}

/** What `tree <run> --json` prints: the run's lineage. */
export type TreeDocument = { readonly mode: 'tree'; readonly runId: string } & Lineage;

/** A run with its steps and the bytes of each tier: `show <run> --json`. */
export async function runDocument(engine: Engine, runId: string): Promise<RunDocument> {
  const run = await engine.getRun(runId);
  return { ...run, tiers: await engine.tierSizes(runId) };
}

/** The checkpoint after step `step` of a run (0: before any): `show <run> --step K --json`. */
export async function checkpointDocument(engine: Engine, runId: string, step: number): Promise<CheckpointDocument> {
  const { run, checkpoint } = await checkpointAfter(engine, runId, step);
  return checkpointDocumentOf(run, step, checkpoint);
}

/** The document of a checkpoint already read. */
export function checkpointDocumentOf(
  run: Pick<RunSummary, 'mode' | 'runId'>,
  step: number,
  checkpoint: RestoredCheckpoint,
): CheckpointDocument {
  return { mode: run.mode, runId: run.runId, step, state: checkpoint.value, context: checkpoint.context };
}

/** The checkpoint after step `step` of a run, and the run; STEP_OUT_OF_RANGE past its last step. */
export async function checkpointAfter(
  engine: Engine,
  runId: string,
  step: number,
): Promise<{ readonly run: RunSummary; readonly checkpoint: RestoredCheckpoint }> {
  const run = await engine.getRunSummary(runId);
  if (step > run.stepCount) {
    throw new ForkpointError(
      'STEP_OUT_OF_RANGE',
      `run ${runId} has checkpoints 0 to ${run.stepCount}; there is no checkpoint after step ${step}`,
      { details: { runId, step } },
    );
  }
  return { run, checkpoint: await engine.checkpoint(runId, step) };
}

/** A run's lineage: `tree <run> --json`. */
export async function treeDocument(engine: Engine, runId: string): Promise<TreeDocument> {
  return { mode: 'tree', runId, ...(await engine.lineage(runId)) };
}

/**
 * Two runs compared step by step: `compare <a> <b> --json`. A run whose full
 * tier expired (removed by gc or not) or was never captured keeps no steps to
 * compare, and says so (CASSETTE_EXPIRED), rather than comparing as a run of
 * no steps. `summarize` says each step in one line, in the words of the runs' scenario.
 */
export async function compareDocument(
  engine: Engine,
  first: string,
  second: string,
  summarize: (scenario: string | null) => Promise<(step: Pick<StepView, 'kind' | 'response'>) => string>,
): Promise<RunComparison> {
  const a = await engine.getRun(first);
  const b = await engine.getRun(second);
  for (const run of [a, b]) {
    const gone = stepsGone(run.retention);
    if (gone !== null) {
      throw new ForkpointError(
        'CASSETTE_EXPIRED',
        `run ${run.runId} keeps no steps to compare: ${gone}; \`forkpoint show ${run.runId}\` shows its summary`,
        { details: { runId: run.runId } },
      );
    }
  }
  return compareRuns(a, b, await summarize(a.scenario ?? b.scenario));
}

// Why a run has no steps to show, or null when it has them: reads hide an expired tier's steps before gc removes them.
function stepsGone(retention: RunRetention): string | null {
  if (retention.purge !== null) return `its full tier was removed at ${retention.purge.at}`;
  if (!retention.expired) return null;
  return `its full tier expired at ${retention.expiresAt ?? 'its expiry'} (gc has not removed it yet, but no read shows it)`;
}

/** How {@link compareDocument} says a step in one line, from the words a front end gives for a scenario's runs. */
export function stepSummaryIn(
  words: (scenarios: readonly (string | null)[]) => Promise<RunWords>,
): Parameters<typeof compareDocument>[3] {
  return async (scenario) => {
    const chosen = await words([scenario]);
    return (step) => chosen.step({ scenario }, step);
  };
}
