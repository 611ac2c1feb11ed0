import { ForkpointError } from '../errors/index.js';
import type { RunOwner, RunRecord, StoreReader } from '../store/index.js';
import { asReadAt, fullTierExpired } from './expired-view.js';
import type { RunSummary, RunView } from './run-view.js';
import { readStepViews } from './step-views.js';
import type { RunStatus } from '../vocabulary/index.js';

/** Whether a running run's owner is still at work (see `isOwnerAlive`). */
export type OwnerCheck = (owner: RunOwner) => boolean;

/** Reports a `running` run whose owner is gone (its lease lapsed, or its process died) as `interrupted`. */
export function effectiveStatus(run: RunRecord, isOwnerAlive: OwnerCheck): RunStatus {
  if (run.status !== 'running') return run.status;
  return run.owner !== null && isOwnerAlive(run.owner) ? 'running' : 'interrupted';
}

/**
 * A run without its steps. With `now`, as a read at that time shows it: an
 * expired full tier's payloads shaped (see `asReadAt`) and marked expired.
 */
export function summarizeRun(stored: RunRecord, isOwnerAlive: OwnerCheck, now?: Date): RunSummary {
  const run = now === undefined ? stored : asReadAt(stored, now);
  return {
    mode: run.mode,
    runId: run.runId,
    agent: { name: run.agentName, build: run.build, codeHash: run.codeHash },
    scenario: run.scenario,
    input: run.input,
    worldAt: run.worldAt,
    seed: run.seed,
    status: effectiveStatus(run, isOwnerAlive),
    outcome: run.outcome,
    error: run.error,
    parent: run.parent,
    sourceRunId: run.sourceRunId,
    sourceCassette: run.sourceCassette,
    findings: run.findings,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    stepCount: run.stepCount,
    retention: {
      tier: run.tier,
      expiresAt: run.expiresAt,
      structuralExpiresAt: run.structuralExpiresAt,
      purge: run.purge,
      expired: now !== undefined && fullTierExpired(run, now),
    },
    sideEffects: run.sideEffects,
    resumes: run.resumes,
  };
}

/** Fetches a run record or fails with `RUN_NOT_FOUND`. */
export async function requireRun(store: StoreReader, runId: string): Promise<RunRecord> {
  const run = await store.getRun(runId);
  if (run === undefined) {
    throw new ForkpointError(
      'RUN_NOT_FOUND',
      `no run ${runId} in ${store.location}; list runs with \`forkpoint runs\``,
    );
  }
  return run;
}

/**
 * Reads a run with every step of its trajectory decoded. Steps a fork
 * inherited from its parent are read from the parent and marked `inherited`.
 * With `now`, a run whose full tier has expired by then shows no steps, and
 * its summary's payloads shaped, whether or not `gc` has removed them.
 */
export function readRunView(store: StoreReader, runId: string, isOwnerAlive: OwnerCheck, now?: Date): Promise<RunView> {
  return store.read(async (reader) => {
    const run = await requireRun(reader, runId);
    const { stepCount: _stepCount, ...summary } = summarizeRun(run, isOwnerAlive, now);
    return { ...summary, steps: summary.retention.expired ? [] : await readStepViews(reader, runId, { known: run }) };
  });
}
