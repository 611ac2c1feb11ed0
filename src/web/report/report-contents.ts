import type { RunComparison } from '../../analysis/index.js';
import type { Engine } from '../../engine/index.js';
import type { TreeDocument } from '../data/index.js';
import { checkpointViewOf, compareDocument, runDocument, treeDocument } from '../data/index.js';
import type { RunDocument } from '../pages/run-page.js';
import type { CheckpointView } from '../pages/step-detail.js';

/** A report holds the checkpoint after each step for runs up to this long; a longer run's are left out, and it says so. */
export const REPORT_CHECKPOINT_LIMIT = 200;

/** Everything a report file shows, read from the store: the documents `show`, `tree` and `compare` print. */
export interface ReportContents {
  readonly run: RunDocument;
  readonly tree: TreeDocument;
  /** The checkpoint after each step, or why it is not in the report. */
  readonly checkpoints: ReadonlyMap<number, CheckpointView>;
  readonly comparison: RunComparison | null;
}

/**
 * Reads what a report of `runId` shows, and of its comparison with `other`
 * when given. An expired full tier is not read: the run's document then holds
 * no step, and no checkpoint is read.
 */
export async function readReportContents(
  engine: Engine,
  runId: string,
  other: string | undefined,
  summarize: Parameters<typeof compareDocument>[3],
): Promise<ReportContents> {
  const run = await runDocument(engine, runId);
  const tree = await treeDocument(engine, runId);
  const comparison = other === undefined ? null : await compareDocument(engine, runId, other, summarize);
  const checkpoints = new Map<number, CheckpointView>();
  const left = (reason: string): CheckpointView => ({ kind: 'missing', reason });
  for (const step of run.steps) {
    if (run.steps.length > REPORT_CHECKPOINT_LIMIT) {
      checkpoints.set(
        step.step,
        left(
          `left out of reports of runs over ${REPORT_CHECKPOINT_LIMIT} steps: \`forkpoint show ${runId} --step ${step.step}\` prints it`,
        ),
      );
      continue;
    }
    checkpoints.set(step.step, await checkpointViewOf(engine, runId, step.step));
  }
  return { run, tree, checkpoints, comparison };
}
