import { ForkpointError, isForkpointError } from '../../errors/index.js';
import type { RunStatus } from '../../vocabulary/index.js';
import type { RunRecord } from '../run-record.js';
import type { Store, StoreReader } from '../store.js';
import type { CopyPlanOptions } from './copy-plan.js';
import { planCopy } from './copy-plan.js';
import type { RunContent } from './run-content.js';
import { readRunContent, sameContent } from './run-content.js';

/** Where a copy writes: opened only to check what it holds, and to write only when there is something to. */
export interface CopyTarget {
  /** Where the target is, for messages (a URL without its password). */
  readonly location: string;
  /** The target opened only to read, or undefined when it does not exist yet. */
  openExisting(): Promise<Store | undefined>;
  /** The target opened to write (created, or migrated, as a writing command does). */
  open(): Promise<Store>;
}

/** What became of one run. */
export interface CopiedRun {
  readonly runId: string;
  readonly mode: RunRecord['mode'];
  /** As readers see it: a `running` run copied is `interrupted` (its owner's lease had lapsed), to be resumed in the target. */
  readonly status: RunStatus;
  /** `copied`; or `skipped`: the target held it already, the same. */
  readonly action: 'copied' | 'skipped';
  /** The run's rows written (a purged run has none), and the blobs they reach. */
  readonly rows: number;
  readonly blobs: number;
  /** True for a run whose full tier was purged: its summary and structural tier are what is copied. */
  readonly purged: boolean;
}

/** A copy's report: every run in the order it was written or skipped. */
export interface CopyReport {
  readonly runs: readonly CopiedRun[];
  readonly copied: number;
  readonly skipped: number;
  readonly rows: number;
  readonly blobs: number;
}

/**
 * Copies runs from one store to another: every run, or the runs named and
 * their ancestors (see `planCopy`), each written whole by `importRun` with
 * its id, lineage, tier, expiries, purge, findings, resumes and token totals,
 * and its rows and blobs as stored. A run the target holds the same already is
 * skipped, so a copy run again writes nothing; the same id with other content
 * is `RUN_EXISTS`. Everything is checked before anything is written, and the
 * target is opened to write only when a run needs writing.
 */
export async function copyRuns(source: StoreReader, target: CopyTarget, options: CopyPlanOptions): Promise<CopyReport> {
  const plan = await planCopy(source, options);
  const held = await heldAlready(source, target, plan);
  const runs: CopiedRun[] = [];
  const pending = plan.filter((run) => !held.has(run.runId));
  const store = pending.length === 0 ? undefined : await target.open();
  try {
    for (const run of plan) {
      const skipped = held.get(run.runId);
      if (skipped !== undefined || store === undefined) {
        if (skipped !== undefined) runs.push(skipped);
        continue;
      }
      // Read again, one run at a time, so that a copy holds one run's rows and blobs in memory at once.
      const content = await contentOf(source, run.runId);
      await store.importRun(content.run, content.rows, content.blobs, content.structural);
      runs.push(reportOf(content, 'copied'));
    }
  } finally {
    await store?.close();
  }
  const copied = runs.filter((run) => run.action === 'copied');
  return {
    runs,
    copied: copied.length,
    skipped: runs.length - copied.length,
    rows: copied.reduce((sum, run) => sum + run.rows, 0),
    blobs: copied.reduce((sum, run) => sum + run.blobs, 0),
  };
}

// The planned runs the target holds already, the same, by id; another content under a planned id is refused.
async function heldAlready(
  source: StoreReader,
  target: CopyTarget,
  plan: readonly RunRecord[],
): Promise<Map<string, CopiedRun>> {
  const held = new Map<string, CopiedRun>();
  let existing: Store | undefined;
  try {
    existing = await target.openExisting();
  } catch (error) {
    // A target of an older schema cannot be read without migrating it, which a copy into it does anyway.
    if (!isForkpointError(error, 'STORE_OUTDATED')) throw error;
    existing = await target.open();
  }
  if (existing === undefined) return held;
  try {
    for (const run of plan) {
      if ((await existing.getRun(run.runId)) === undefined) continue;
      const [ours, theirs] = [await contentOf(source, run.runId), await readRunContent(existing, run.runId)];
      if (theirs === undefined) continue;
      if (!sameContent(ours, theirs)) throw conflict(run.runId, target.location);
      held.set(run.runId, reportOf(ours, 'skipped'));
    }
  } finally {
    await existing.close();
  }
  return held;
}

async function contentOf(source: StoreReader, runId: string): Promise<RunContent> {
  const content = await readRunContent(source, runId);
  if (content === undefined)
    throw new ForkpointError('RUN_NOT_FOUND', `run ${runId} left ${source.location} while it was being copied`, {
      details: { runId },
    });
  return content;
}

function conflict(runId: string, location: string): ForkpointError {
  return new ForkpointError(
    'RUN_EXISTS',
    `${location} holds a run ${runId} already, with other content (another recording under the same id, or the same run changed since, by a resume or gc); nothing was copied`,
    { details: { runId } },
  );
}

function reportOf(content: RunContent, action: CopiedRun['action']): CopiedRun {
  const { run } = content;
  return {
    runId: run.runId,
    mode: run.mode,
    // A copy never takes a run whose owner is at work (see planCopy).
    status: run.status === 'running' ? 'interrupted' : run.status,
    action,
    rows: content.rows.length,
    blobs: content.blobs.length,
    purged: run.purge !== null,
  };
}
