import type { JsonObject, JsonValue } from '../json/index.js';
import { deepFreeze } from '../json/index.js';
import type { LineageSegment } from '../checkpoint/index.js';
import { lineageOf, segmentAt } from '../checkpoint/index.js';
import { ForkpointError } from '../errors/index.js';
import { decodePayloads } from '../payload/index.js';
import type { MessageDigests } from '../cassette/index.js';
import type { RunOwner, RunRecord, RunResume, StepRecord, StoreReader } from '../store/index.js';
import type { CompletedStep } from '../driver/index.js';
import { asReadAt, fullTierExpired } from './expired-view.js';
import { modelRequestView } from './model-request-view.js';
import type { RunSummary, RunView, StepView } from './run-view.js';
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
    at: run.worldAt,
    seed: run.seed,
    status: effectiveStatus(run, isOwnerAlive),
    outcome: run.outcome,
    error: run.error,
    parent: run.parent,
    source: run.sourceRunId,
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
    return { ...summary, steps: summary.retention.expired ? [] : await readStepViews(reader, runId, run) };
  });
}

/**
 * Makes the views of one run's steps from the steps the driver completed,
 * rather than read back: the same request (canonical, messages by digest)
 * and response as {@link readStepViews} decodes from the stored rows. The
 * run's model requests share their head fields, parsed once and frozen.
 *
 * @internal A completed step holds the machine's xstate snapshot, whose types are kept out of the published
 * declarations (tsconfig.build.json).
 */
export function stepViewer(): (completed: CompletedStep) => StepView {
  let head: { readonly text: string; readonly value: JsonObject } | undefined;
  const headOf = (text: string): JsonObject => {
    if (head?.text !== text) head = { text, value: deepFreeze(JSON.parse(`{${text}}`) as JsonObject) };
    return head.value;
  };
  return (completed) => ({
    step: completed.step,
    kind: completed.kind,
    index: completed.index,
    requestHash: completed.hash,
    provenance: completed.provenance,
    // A viewer watches a run's first attempt: `record` and `replay` never resume.
    attempt: 1,
    sideEffect: completed.sideEffect === true,
    // A model request from its parts: parsing the whole canonical text would cost the conversation's length.
    request:
      completed.type === 'model'
        ? modelRequestView(headOf(completed.headText), completed.messageDigests)
        : (JSON.parse(completed.canonical) as JsonValue),
    // A model response as it came, a tool's as `{ output, isError }`: the shapes the stored rows decode to.
    response: completed.response as unknown as JsonValue,
  });
}

/** The attempt that wrote each step of a run: every resume starts right after the last committed step. */
export function attemptOf(resumes: readonly RunResume[], step: number): number {
  let attempt = 1;
  for (const resume of resumes) if (resume.fromStep <= step) attempt = resume.attempt;
  return attempt;
}

/**
 * Every step of a run's trajectory (lineage included), decoded. Linear in the
 * run's length: the model steps' requests share one digest list (see
 * {@link modelRequestView}).
 */
export async function readStepViews(store: StoreReader, runId: string, known?: RunRecord): Promise<StepView[]> {
  const segments = await lineageOf(store, runId, known);
  const rows: Array<{ row: StepRecord; inherited: boolean; attempt: number }> = [];
  const digests: string[] = [];
  for (const segment of segments) {
    const inherited = segment.runId !== runId;
    const owner = known?.runId === segment.runId ? known : await store.getRun(segment.runId);
    const resumes = owner?.resumes ?? [];
    for (const row of await store.readSteps(segment.runId, segment.from, segment.to)) {
      if (row.messageDigest !== null) digests.push(row.messageDigest);
      if (row.step > 0) rows.push({ row, inherited, attempt: attemptOf(resumes, row.step) });
    }
  }
  const decoded = await decodeRows(
    store,
    rows.map(({ row }) => row),
  );
  return rows.map(({ row, inherited, attempt }, i) =>
    viewOfRow(row, decoded[i]!, { list: digests, length: row.messageCount ?? 0 }, inherited, attempt),
  );
}

/**
 * Step `step` of a trajectory alone, from the one row that holds it (in the
 * run's own rows or an ancestor's): what a fork needs of the step it changes,
 * at a cost that does not grow with the run. Undefined when there is no such step.
 *
 * @param lineage the trajectory's segments ({@link lineageOf} of the run)
 * @param digests the digests of the messages before the step (a model step's request is made of them)
 */
export async function readStepAt(
  store: StoreReader,
  lineage: readonly LineageSegment[],
  step: number,
  digests: readonly string[],
): Promise<StepView | undefined> {
  const segment = Number.isInteger(step) && step > 0 ? segmentAt(lineage, step) : undefined;
  const row = segment === undefined ? undefined : (await store.readSteps(segment.runId, step, step))[0];
  if (segment === undefined || row?.step !== step) return undefined;
  const attempt = attemptOf((await store.getRun(segment.runId))?.resumes ?? [], step);
  const inherited = segment !== lineage[lineage.length - 1];
  return viewOfRow(
    row,
    (await decodeRows(store, [row]))[0]!,
    { list: digests, length: row.messageCount ?? 0 },
    inherited,
    attempt,
  );
}

// Each row's request and response, decoded together: one read of the blobs they refer to.
async function decodeRows(
  store: StoreReader,
  rows: readonly StepRecord[],
): Promise<Array<{ request: JsonValue; response: JsonValue }>> {
  const decoded = await decodePayloads(
    rows.flatMap((row) => [row.request ?? 'null', row.response ?? 'null']),
    (wanted) => store.readBlobs(wanted),
  );
  return rows.map((_row, i) => ({ request: decoded[2 * i]!, response: decoded[2 * i + 1]! }));
}

function viewOfRow(
  row: StepRecord,
  decoded: { request: JsonValue; response: JsonValue },
  digests: MessageDigests,
  inherited: boolean,
  attempt: number,
): StepView {
  const isModel = row.kind === 'model';
  return {
    step: row.step,
    kind: row.kind ?? '',
    index: row.index ?? 0,
    requestHash: row.requestHash ?? '',
    provenance: inherited ? 'inherited' : (row.provenance ?? 'live'),
    attempt,
    // A side effect the parent fired is the parent's: an inherited step fired nothing.
    sideEffect: !inherited && row.sideEffect,
    // The canonical request of a model step: its stored head, and its messages by digest.
    request: isModel ? modelRequestView(decoded.request as JsonObject, digests) : decoded.request,
    response: isModel ? decoded.response : { output: decoded.response, isError: row.isError },
  };
}
