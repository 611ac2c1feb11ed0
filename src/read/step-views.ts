import type { MessageDigests } from '../cassette/index.js';
import type { LineageSegment } from '../checkpoint/index.js';
import { lineageOf, rowMessageDigests, segmentAt } from '../checkpoint/index.js';
import type { CompletedStep } from '../driver/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { deepFreeze, isJsonObject } from '../json/index.js';
import { decodePayloads } from '../payload/index.js';
import type { RunRecord, RunResume, StepRecord, StoreReader } from '../store/index.js';
import { modelRequestView } from './model-request-view.js';
import type { StepView } from './run-view.js';

/**
 * The one place a {@link StepView} is made, from what every source of a step
 * knows: the driver's completed step as it happens, or a stored row read back.
 * Both give the request in its canonical form (a model request's messages by
 * digest) and the response in the shape the rows decode to (a model response
 * as it came, a tool's as `{ output, isError }`), so a run's result and a read
 * of it show the same steps.
 */
function stepView(facts: Omit<StepView, 'request' | 'response'>, request: JsonValue, response: JsonValue): StepView {
  // Field by field, not spread: a read of a long run makes thousands of these, and a spread costs several times more.
  return {
    step: facts.step,
    kind: facts.kind,
    index: facts.index,
    requestHash: facts.requestHash,
    provenance: facts.provenance,
    attempt: facts.attempt,
    sideEffect: facts.sideEffect,
    request,
    response,
  };
}

/**
 * Makes the views of one run's steps from the steps the driver completed,
 * rather than read back. The run's model requests share their head fields,
 * parsed once and frozen.
 *
 * @param attempt the attempt of the run that makes the steps: 1, or the resume's
 * @internal A completed step holds the machine's xstate snapshot, whose types are kept out of the published
 * declarations (tsconfig.build.json).
 */
export function stepViewer(attempt = 1): (completed: CompletedStep) => StepView {
  let head: { readonly text: string; readonly value: JsonObject } | undefined;
  const headOf = (text: string): JsonObject => {
    if (head?.text !== text) head = { text, value: deepFreeze(parseHead(text)) };
    return head.value;
  };
  return (completed) =>
    stepView(
      {
        step: completed.step,
        kind: completed.kind,
        index: completed.index,
        requestHash: completed.requestHash,
        provenance: completed.provenance,
        attempt,
        sideEffect: completed.sideEffect === true,
      },
      // A model request from its parts: parsing the whole canonical text would cost the conversation's length.
      completed.type === 'model'
        ? modelRequestView(headOf(completed.headText), completed.messageDigests)
        : (JSON.parse(completed.canonical) as JsonValue),
      completed.response,
    );
}

// A head text is the canonical fields of a model request but its messages, without the braces around them.
function parseHead(text: string): JsonObject {
  const head = JSON.parse(`{${text}}`) as JsonValue;
  if (!isJsonObject(head)) throw new Error('a model request head is always an object');
  return head;
}

/** The attempt that wrote each step of a run: every resume starts right after the last committed step. */
export function attemptOf(resumes: readonly RunResume[], step: number): number {
  let attempt = 1;
  for (const resume of resumes) if (resume.fromStep <= step) attempt = resume.attempt;
  return attempt;
}

/** Which steps {@link readStepViews} reads. */
export interface StepRange {
  /** The run's record, when the caller has it: one read less. */
  readonly known?: RunRecord;
  /** The last step to read; default the run's last. */
  readonly through?: number;
}

/**
 * The steps of a run's trajectory (lineage included), decoded: every step, or
 * those up to `through` (what a fork's result needs of its parent). Linear in
 * the steps read: the model steps' requests share one digest list (see
 * {@link modelRequestView}).
 */
export async function readStepViews(store: StoreReader, runId: string, range: StepRange = {}): Promise<StepView[]> {
  const { known, through = Number.POSITIVE_INFINITY } = range;
  const segments = await lineageOf(store, runId, known);
  const rows: Array<{ row: StepRecord; inherited: boolean; attempt: number }> = [];
  const digests: string[] = [];
  for (const segment of segments) {
    if (segment.from > through) break;
    const inherited = segment.runId !== runId;
    const owner = known?.runId === segment.runId ? known : await store.getRun(segment.runId);
    const resumes = owner?.resumes ?? [];
    for (const row of await store.readSteps(segment.runId, segment.from, Math.min(segment.to, through))) {
      for (const digest of rowMessageDigests(row.messageDigest)) digests.push(digest);
      if (row.step > 0) rows.push({ row, inherited, attempt: attemptOf(resumes, row.step) });
    }
  }
  return (await decodeRows(store, rows)).map(({ item: { row, inherited, attempt }, decoded }) =>
    viewOfRow(row, decoded, { list: digests, length: row.messageCount ?? 0 }, inherited, attempt),
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
  const inherited = segment !== lineage.at(-1);
  const [decoded] = await decodeRows(store, [{ row }]);
  if (decoded === undefined) return undefined;
  return viewOfRow(row, decoded.decoded, { list: digests, length: row.messageCount ?? 0 }, inherited, attempt);
}

/** A row's request and response, decoded. */
interface DecodedRow {
  readonly request: JsonValue;
  readonly response: JsonValue;
}

// Each row's request and response, decoded together (one read of the blobs they refer to), kept with
// whatever the caller holds with the row.
async function decodeRows<T extends { readonly row: StepRecord }>(
  store: StoreReader,
  items: readonly T[],
): Promise<Array<{ readonly item: T; readonly decoded: DecodedRow }>> {
  const values = await decodePayloads(
    items.flatMap(({ row }) => [row.request ?? 'null', row.response ?? 'null']),
    (wanted) => store.readBlobs(wanted),
  );
  // decodePayloads gives one value per text, in order: a request, then its response.
  const next = values[Symbol.iterator]();
  return items.map((item) => ({
    item,
    decoded: { request: next.next().value ?? null, response: next.next().value ?? null },
  }));
}

function viewOfRow(
  row: StepRecord,
  decoded: { request: JsonValue; response: JsonValue },
  digests: MessageDigests,
  inherited: boolean,
  attempt: number,
): StepView {
  const isModel = row.kind === 'model';
  return stepView(
    {
      step: row.step,
      kind: row.kind ?? '',
      index: row.index ?? 0,
      requestHash: row.requestHash ?? '',
      provenance: inherited ? 'inherited' : (row.provenance ?? 'live'),
      attempt,
      // A side effect the parent fired is the parent's: an inherited step fired nothing.
      sideEffect: !inherited && row.sideEffect,
    },
    // The canonical request of a model step: its stored head, and its messages by digest.
    isModel && isJsonObject(decoded.request) ? modelRequestView(decoded.request, digests) : decoded.request,
    isModel ? decoded.response : { output: decoded.response, isError: row.isError },
  );
}
