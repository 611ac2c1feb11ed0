import { ForkpointError } from '../errors/index.js';
import { withFields } from '../json/index.js';
import { WRAPPED_LOOP_VERSION } from '../machine/index.js';
import type { PriceLookup, PriceTable } from '../pricing/index.js';
import { costOfSteps, runCostOf } from '../pricing/index.js';
import type { RunOwner, RunRecord, StoreReader } from '../store/index.js';
import { asReadAt, fullTierExpired } from './expired-view.js';
import type { PendingApproval } from './pending-approval.js';
import { waitingApprovalOf } from './pending-approval.js';
import type { RunSummary, RunView, StepView } from './run-view.js';
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
 * A run without its steps, its stored token totals priced by `prices`. With
 * `now`, as a read at that time shows it: an expired full tier's payloads
 * shaped (see `asReadAt`) and marked expired.
 */
export function summarizeRun(stored: RunRecord, isOwnerAlive: OwnerCheck, prices: PriceTable, now?: Date): RunSummary {
  const run = now === undefined ? stored : asReadAt(stored, now);
  return {
    mode: run.mode,
    runId: run.runId,
    agent: { name: run.agentName, build: run.build, codeHash: run.codeHash },
    ...(run.machineVersion === WRAPPED_LOOP_VERSION ? { loop: 'wrapped' as const } : {}),
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
    // A fork's own totals hold no inherited step: a listing reads none of its parent's.
    cost: run.usage === null ? null : runCostOf(run.usage, prices, run.parent === null ? 'counted' : 'not-read'),
  };
}

/**
 * A run with the steps of its trajectory, priced from them, and the approval
 * it waits for (see `waitingApprovalOf`; null for a run that waits for none):
 * what a mode returns from the steps it made, and what a read of the run shows.
 */
export function withSteps(
  summary: RunSummary,
  steps: readonly StepView[],
  prices: PriceTable,
  pendingApproval: PendingApproval | null,
): RunView {
  const { stepCount: _stepCount, cost, ...rest } = summary;
  // An expired run shows no steps: what it stored when it ended is all that prices it.
  const priced = summary.retention.expired
    ? cost === null
      ? null
      : { ...cost, steps: [] }
    : costOfSteps(steps, prices);
  return withFields(rest, { steps, cost: priced, pendingApproval });
}

/** Fetches a run record or fails with `RUN_NOT_FOUND`. */
export async function requireRun(store: StoreReader, runId: string): Promise<RunRecord> {
  const run = await store.getRun(runId);
  if (run === undefined) throw runNotFound(store, runId);
  return run;
}

/** The error of a run `store` does not hold. */
export function runNotFound(store: StoreReader, runId: string): ForkpointError {
  return new ForkpointError('RUN_NOT_FOUND', `no run ${runId} in ${store.location}; list runs with \`forkpoint runs\``);
}

/**
 * Reads a run with every step of its trajectory decoded, priced by the table
 * `prices` gives for its scenario. Steps a fork inherited from its parent are
 * read from the parent and marked `inherited`. With `now`, a run whose full
 * tier has expired by then shows no steps, and its summary's payloads shaped,
 * whether or not `gc` has removed them. A run stopped at rest before a call
 * that needs a person's approval says which call (its last checkpoint is
 * restored for that, and only for such a run).
 */
export async function readRunView(
  store: StoreReader,
  runId: string,
  isOwnerAlive: OwnerCheck,
  prices: PriceLookup,
  now?: Date,
): Promise<RunView> {
  const { run, steps, pending } = await store.read(async (reader) => {
    const found = await requireRun(reader, runId);
    const expired = now !== undefined && fullTierExpired(found, now);
    return {
      run: found,
      steps: expired ? [] : await readStepViews(reader, runId, { known: found }),
      pending: await waitingApprovalOf(reader, found, effectiveStatus(found, isOwnerAlive), now),
    };
  });
  // Looked up once the read is over: a lookup may load a scenario, and a read holds the store's snapshot.
  const table = await prices(run.scenario);
  return withSteps(summarizeRun(run, isOwnerAlive, table, now), steps, table, pending);
}
